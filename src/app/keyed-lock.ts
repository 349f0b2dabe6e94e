/** Runs async work one piece at a time per key, so that what a piece checks still holds when it writes. */
export interface KeyedLock {
  /** Runs `work` once every piece queued before it under `key` has settled; resolves or rejects as it does. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>
}

/** Creates a lock with no work queued. */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>()
  return {
    run(key, work) {
      const result = (tails.get(key) ?? Promise.resolve()).then(work)
      // A failure belongs to its own caller and must not hold up the work queued behind it.
      const tail = result.then(
        () => undefined,
        () => undefined,
      )
      tails.set(key, tail)
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
  }
}
