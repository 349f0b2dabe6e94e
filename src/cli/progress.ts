import type { Out } from './io.ts'

/** A progress bar on a terminal stream; silent when the stream is not a terminal. */
export interface Progress {
  tick(done: number): void
  end(): void
}

/** A progress bar for `total` items, redrawn at most every `everyMs` milliseconds. */
export function createProgress(out: Out, total: number, label: string, now: () => number = Date.now, everyMs = 100): Progress {
  if (!out.isTTY || total === 0) return { tick() {}, end() {} }
  let last = 0
  let shown = false
  const draw = (done: number) => {
    const width = 30
    const filled = Math.round((done / total) * width)
    out.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`)
    shown = true
  }
  return {
    tick(done) {
      const t = now()
      if (t - last < everyMs && done < total) return
      last = t
      draw(done)
    },
    end() {
      if (shown) out.write('\r\x1b[K')
    },
  }
}
