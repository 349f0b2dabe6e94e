import { RetryLaterError } from '../../src/errors.ts'
import type { FileLock } from '../../src/ports/file-lock.ts'

/** The locks held, by file, with the promise that settles when each is released; share one among fakes standing for processes. */
export type HeldLocks = Map<string, Promise<void>>

/** A FileLock in memory. Fakes made with one `held` map exclude each other as processes sharing files do. */
export function createMemoryFileLock(options: { held?: HeldLocks; waitMs?: number } = {}): FileLock {
  const held = options.held ?? new Map()
  const waitMs = options.waitMs ?? 10_000
  return {
    async hold(file, work) {
      const deadline = Date.now() + waitMs
      for (let holder = held.get(file); holder; holder = held.get(file)) {
        let timer: NodeJS.Timeout | undefined
        const late = new Promise<boolean>(
          (resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()))),
        )
        const timedOut = await Promise.race([holder.then(() => false), late])
        clearTimeout(timer)
        if (timedOut && held.get(file) === holder)
          throw new RetryLaterError(`${file} stayed locked by another writer; nothing was saved, try again`, 1, {
            context: { file },
          })
      }
      let release!: () => void
      held.set(file, new Promise<void>((resolve) => (release = resolve)))
      try {
        return await work()
      } finally {
        held.delete(file)
        release()
      }
    },
  }
}
