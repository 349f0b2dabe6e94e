import { spawn, type ChildProcess } from 'node:child_process'
import type { Test } from 'tap'

/** A process holding the write lock of a store file until `release` (or the test's end). */
export interface HeldLock {
  readonly pid: number
  release(): Promise<void>
}

/**
 * Starts a process that opens `file` in WAL mode and takes its write lock (BEGIN IMMEDIATE), as a
 * long write of another judge process or the sqlite3 shell would; resolves once it holds it.
 */
export async function holdWriteLock(t: Test, file: string): Promise<HeldLock> {
  const code = `
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(${JSON.stringify(file)})
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('BEGIN IMMEDIATE')
    process.stdout.write('held\\n')
    process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close() })
    process.stdin.resume()`
  const child: ChildProcess = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] })
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
