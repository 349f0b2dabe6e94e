/**
 * Adaptive concurrency (AIMD): how many engine requests one process keeps in flight. Unlimited
 * until the engine refuses one for load (429); then the limit halves, once per round of requests
 * in flight, and grows back by one per round of successes (additive increase).
 */
export interface Limiter {
  /** Waits for a free place; rejects with the signal's reason when it aborts first. */
  acquire(signal?: AbortSignal): Promise<void>
  /** Frees the place taken by acquire. */
  release(): void
  /** A request succeeded: a limit grows by one for each limit's worth of successes. */
  succeeded(): void
  /**
   * A request sent at `sentAt` was refused for load: the limit becomes half of what was in flight.
   * Refusals of requests sent before the last cut are of the round already counted.
   */
  refused(sentAt: number): void
  /** The current limit; Infinity until the first refusal. */
  readonly limit: number
  readonly inFlight: number
}

interface Waiter {
  readonly resolve: () => void
  readonly reject: (reason: unknown) => void
  readonly signal?: AbortSignal
  readonly onAbort: () => void
}

/** A limiter with no limit yet. */
export function createLimiter(now: () => number): Limiter {
  let limit = Infinity
  let inFlight = 0
  let cutAt = -Infinity
  const waiters: Waiter[] = []
  const wake = (): void => {
    while (waiters.length > 0 && inFlight < Math.floor(limit)) {
      const waiter = waiters.shift()!
      waiter.signal?.removeEventListener('abort', waiter.onAbort)
      inFlight++
      waiter.resolve()
    }
  }
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason)
      if (waiters.length === 0 && inFlight < Math.floor(limit)) {
        inFlight++
        return Promise.resolve()
      }
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          signal,
          onAbort: () => {
            waiters.splice(waiters.indexOf(waiter), 1)
            reject(signal!.reason)
          },
        }
        signal?.addEventListener('abort', waiter.onAbort, { once: true })
        waiters.push(waiter)
      })
    },
    release() {
      inFlight--
      wake()
    },
    succeeded() {
      if (limit === Infinity) return
      limit += 1 / Math.floor(limit)
      wake()
    },
    refused(sentAt) {
      if (sentAt < cutAt) return
      cutAt = now()
      limit = Math.max(1, Math.floor(Math.min(limit, inFlight) / 2))
    },
    get limit() {
      return limit
    },
    get inFlight() {
      return inFlight
    },
  }
}
