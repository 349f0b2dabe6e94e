import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Test } from 'tap'

/** A process holding the write lock of a store file until `release` (or the test's end). */
export interface HeldLock {
  readonly pid: number
  release(): Promise<void>
}

/**
 * Starts a process (hold-write-lock.ts) that opens `file` in WAL mode and takes its write lock
 * (BEGIN IMMEDIATE), as a long write of another judge process or the sqlite3 shell would;
 * resolves once it holds it.
 */
export async function holdWriteLock(t: Test, file: string): Promise<HeldLock> {
  const script = join(import.meta.dirname, 'hold-write-lock.ts')
  const child: ChildProcess = spawn(process.execPath, ['--no-warnings', script, file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const release = async () => {
    child.stdin?.end()
    await exited
  }
  t.teardown(release)
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve())
    child.once('exit', (status) => reject(new Error(`the lock holder exited with ${status} before it held the lock`)))
  })
  return { pid: child.pid!, release }
}
