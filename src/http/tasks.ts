/** Work in flight (requests, shadow judgments), so that a shutdown can wait for it. */
export interface Tasks {
  /** Tracks `promise` until it settles, and returns it. */
  track<T>(promise: Promise<T>): Promise<T>
  /**
   * Tracks work that is no promise (a request answered from callbacks); the function returned
   * ends it, and calling it again does nothing.
   */
  enter(): () => void
  /** How many tracked tasks have not ended. */
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
  let entered = 0
  // Who waits for entered work to end; told at every end, they look again.
  let wake: (() => void)[] = []
  const ended = () => new Promise<void>((resolve) => wake.push(resolve))
  const drained = async (): Promise<true> => {
    while (pending.size > 0 || entered > 0) await (entered > 0 ? ended() : Promise.allSettled([...pending]))
    return true
  }
  return {
    track(promise) {
      const settled = promise.then(
        () => undefined,
        () => undefined,
      )
      pending.add(settled)
      void settled.then(() => pending.delete(settled))
      return promise
    },
    enter() {
      entered++
      let done = false
      return () => {
        if (done) return
        done = true
        entered--
        if (wake.length === 0) return
        const waiting = wake
        wake = []
        for (const resolve of waiting) resolve()
      }
    },
    get size() {
      return pending.size + entered
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
