/** Work in flight (requests, shadow judgments), so that a shutdown can wait for it. */
export interface Tasks {
  /** Tracks `promise` until it settles, and returns it. */
  track<T>(promise: Promise<T>): Promise<T>
  /** How many tracked promises have not settled. */
  readonly size: number
  /**
   * Resolves true once nothing is in flight, work started meanwhile included, or false when
   * `timeoutMs` passes first. Without a timeout it waits as long as it takes.
   */
  idle(timeoutMs?: number): Promise<boolean>
}

/** Creates an empty task set. */
export function createTasks(): Tasks {
  const pending = new Set<Promise<unknown>>()
  const drained = async (): Promise<true> => {
    while (pending.size > 0) await Promise.allSettled([...pending])
    return true
  }
  return {
    track(promise) {
      const settled = promise.then(() => undefined, () => undefined)
      pending.add(settled)
      void settled.then(() => pending.delete(settled))
      return promise
    },
    get size() {
      return pending.size
    },
    async idle(timeoutMs) {
      if (timeoutMs === undefined) return drained()
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)))
      try {
        return await Promise.race([drained(), late])
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
