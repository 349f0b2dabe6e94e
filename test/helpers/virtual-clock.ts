/** A clock for tests whose waits take no time. */
export interface VirtualClock {
  /** The clock's time, as the runtime's `now` takes it. */
  now(): Date
  /** The clock's time in milliseconds, as a rate limit's window reads it. */
  ms(): number
  /** Resumes when the clock reaches the end of the wait; rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** The time slept in all, by every sleeper together, in milliseconds. */
  readonly slept: number
}

interface Sleeper {
  readonly until: number
  readonly wake: () => void
}

/**
 * A clock that stands still until someone sleeps. Sleepers are woken one at a time, the earliest
 * end first, each after a millisecond of real time so that the requests already sent arrive
 * first; the clock moves on to each end as it wakes its sleeper. Waits that overlap, as concurrent
 * requests' do, overlap on the clock too, and a run that would wait out seconds of pacing and
 * Retry-After takes a moment.
 */
export function createVirtualClock(start = Date.parse('2026-01-01T00:00:00.000Z')): VirtualClock {
  let time = start
  let slept = 0
  const sleepers: Sleeper[] = []
  let timer: NodeJS.Timeout | null = null
  const step = () => {
    timer = null
    sleepers.sort((a, b) => a.until - b.until)
    const next = sleepers.shift()
    if (next === undefined) return
    time = Math.max(time, next.until)
    next.wake()
    if (sleepers.length > 0) timer = setTimeout(step, 1)
  }
  return {
    now: () => new Date(time),
    ms: () => time,
    sleep(ms, signal) {
      slept += Math.max(0, ms)
      return new Promise<void>((resolve, reject) => {
        const sleeper = {
          until: time + Math.max(0, ms),
          wake: () => (signal?.aborted ? reject(signal.reason) : resolve()),
        }
        sleepers.push(sleeper)
        signal?.addEventListener(
          'abort',
          () => {
            const at = sleepers.indexOf(sleeper)
            if (at >= 0) sleepers.splice(at, 1)
            reject(signal.reason)
          },
          { once: true },
        )
        timer ??= setTimeout(step, 1)
      })
    },
    get slept() {
      return slept
    },
  }
}
