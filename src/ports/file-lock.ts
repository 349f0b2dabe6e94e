/**
 * A lock per file, held across processes: while one caller's work runs under a file's lock, no
 * other caller, in this process or another sharing the file, runs work under it. It guards what a
 * caller checks in a file until its write is done (a verdict against the reviews file it is
 * appended to). The file itself is never opened or created by the lock.
 */
export interface FileLock {
  /**
   * Runs `work` once the lock of `file` is had, releases it when `work` settles, and resolves or
   * rejects as `work` does. A lock not had within the holder's bound rejects with a
   * `RetryLaterError` (503) and `work` never runs. A process that ends while holding a lock, even
   * killed, releases it.
   */
  hold<T>(file: string, work: () => Promise<T>): Promise<T>
}
