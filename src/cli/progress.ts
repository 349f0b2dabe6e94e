import type { Out } from './io.ts'
import { usd } from './text.ts'

/** A progress bar on a terminal stream; silent when the stream is not a terminal. */
export interface Progress {
  /** One more row done. */
  tick(): void
  /** `done` rows done, from however many before. */
  moveTo(done: number): void
  end(): void
}

/** What the bar shows beside the rows, read at each redraw. */
export interface ProgressStatus {
  /** Answers asked of the engine so far. */
  readonly asked: number
  /** USD spent so far by the judgment that spent most: what the cap limits. */
  readonly spent: number
  /** The cap in USD per judgment. */
  readonly cap: number
  /** When the wait for the engine's rate limit ends (ms since the epoch), or null. */
  readonly rateLimitedUntil: number | null
  /** Engine requests failed since the last success. */
  readonly failing: number
}

/** Options of createProgress. */
export interface ProgressOptions {
  readonly now?: () => number
  /** Least time between two redraws on ticks. */
  readonly everyMs?: number
  /** Redraw this often even without a tick, so that a wait shows; 0 for never. */
  readonly refreshMs?: number
  readonly status?: () => ProgressStatus
}

/**
 * A progress bar for `total` rows: rows done, rows per second, time left, answers asked, spend
 * against the cap, and whether it waits for the engine's rate limit or rides out its errors.
 */
export function createProgress(out: Out, total: number, label: string, options: ProgressOptions = {}): Progress {
  if (!out.isTTY || total === 0) return { tick() {}, moveTo() {}, end() {} }
  const now = options.now ?? Date.now
  const everyMs = options.everyMs ?? 100
  const started = now()
  let last = -Infinity
  let done = 0
  let shown = false
  const draw = () => {
    out.write(`\r\x1b[K${progressLine(label, done, total, now() - started, now(), options.status?.())}`)
    shown = true
    last = now()
  }
  const moveTo = (rows: number) => {
    if (rows === done) return
    done = rows
    if (now() - last < everyMs && done < total) return
    draw()
  }
  const timer = options.refreshMs === 0 ? null : setInterval(draw, options.refreshMs ?? 1000)
  timer?.unref()
  return {
    tick: () => moveTo(done + 1),
    moveTo,
    end() {
      if (timer) clearInterval(timer)
      if (shown) out.write('\r\x1b[K')
    },
  }
}

/** One line of the bar: `judging [####....] 120/300 · 41.0 rows/s · 0:04 left · 360 asked · $0.0012 of $1.00`. */
export function progressLine(
  label: string,
  done: number,
  total: number,
  elapsedMs: number,
  now: number,
  status?: ProgressStatus,
): string {
  const width = 20
  const filled = Math.round((Math.min(done, total) / total) * width)
  const parts = [`${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`]
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0
  parts.push(`${rate.toFixed(1)} rows/s`)
  if (rate > 0 && done < total) parts.push(`${clock((total - done) / rate)} left`)
  if (status) {
    parts.push(`${status.asked} asked`, `${usd(status.spent)} of ${usd(status.cap)}`)
    if (status.rateLimitedUntil !== null && status.rateLimitedUntil > now) {
      parts.push(`waiting ${Math.ceil((status.rateLimitedUntil - now) / 1000)} s for the engine's rate limit`)
    } else if (status.failing > 0) {
      parts.push(`${status.failing} engine error${status.failing === 1 ? '' : 's'} in a row, retrying`)
    }
  }
  return parts.join(' · ')
}

function clock(seconds: number): string {
  const s = Math.ceil(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m)
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s % 60).padStart(2, '0')}`
}
