import t from 'tap'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createSqliteFileLock, lockFileOf } from '../../../src/adapters/sqlite/sqlite-file-lock.ts'
import { RetryLaterError } from '../../../src/errors.ts'
import { fileLockContract } from '../../helpers/contracts/file-lock.ts'

await fileLockContract(t, 'the SQLite lock keeps the FileLock contract', (t, waitMs) => {
  const dir = t.testdir({})
  return {
    processes: [createSqliteFileLock({ waitMs }), createSqliteFileLock({ waitMs })],
    file: (name) => join(dir, name),
  }
})

const ADAPTER = pathToFileURL(join(import.meta.dirname, '../../../src/adapters/sqlite/sqlite-file-lock.ts')).href

/** Starts a process that takes the lock of `file` and holds it until it is killed; resolves with the lock file it holds, once it does. */
async function holdingProcess(file: string): Promise<{ lockFile: string; kill(): Promise<void> }> {
  const code = `
    import { createSqliteFileLock, lockFileOf } from ${JSON.stringify(ADAPTER)}
    const file = process.env.LOCKED_FILE
    setInterval(() => {}, 1000)
    // The work waits on nothing that is referenced; a full collection first shows the lock outlives its frame.
    await createSqliteFileLock().hold(file, () => { setTimeout(() => { globalThis.gc(); console.log('holding ' + lockFileOf(file)) }, 0); return new Promise(() => {}) })`
  const child = spawn(process.execPath, ['--no-warnings', '--expose-gc', '--input-type=module', '-e', code], {
    env: { ...process.env, LOCKED_FILE: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  let output = ''
  const lockFile = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d
      const held = /^holding (.+)$/m.exec(output)
      if (held) resolve(held[1])
    })
    child.on('exit', (status) =>
      reject(new Error(`the holding process ended (${status}) before it held the lock: ${output}`)),
    )
  })
  return {
    lockFile,
    kill: async () => {
      child.kill('SIGKILL')
      await exited
    },
  }
}

t.test(
  'a lock held by another process keeps this one out until that process is killed, which releases it',
  async (t) => {
    const file = join(t.testdir({}), 'spam.reviews.csv')
    const other = await holdingProcess(file)
    t.teardown(() => other.kill())
    t.equal(other.lockFile, lockFileOf(file), 'the other process holds the lock of the same file')
    await t.rejects(
      createSqliteFileLock({ waitMs: 100 }).hold(file, async () => t.fail('ran while another process held the lock')),
      RetryLaterError,
    )
    await other.kill()
    const started = Date.now()
    t.equal(
      await createSqliteFileLock({ waitMs: 2000 }).hold(file, async () => 'had'),
      'had',
      'the dead process left no lock',
    )
    t.ok(Date.now() - started < 1000, 'at once')
  },
)

t.test('waiting for a lock never blocks the event loop', async (t) => {
  const file = join(t.testdir({}), 'spam.reviews.csv')
  const lock = createSqliteFileLock({ waitMs: 5000 })
  let ticks = 0
  const timer = setInterval(() => ticks++, 5)
  let release!: () => void
  const held = lock.hold(file, () => new Promise<void>((resolve) => (release = resolve)))
  const waiting = createSqliteFileLock().hold(file, async () => 'second')
  await new Promise((resolve) => setTimeout(resolve, 100))
  clearInterval(timer)
  t.ok(ticks >= 5, `timers ran while the second holder waited (${ticks})`)
  release()
  await held
  t.equal(await waiting, 'second')
})

t.test('the lock file is .judge/<name>.lock beside the file, which it neither creates nor touches', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': 'name: spam\n' })
  const file = join(dir, 'spam.reviews.csv')
  t.equal(lockFileOf(file), join(dir, '.judge', 'spam.reviews.csv.lock'))
  await createSqliteFileLock().hold(file, async () => {
    t.same(readdirSync(join(dir, '.judge')), ['spam.reviews.csv.lock'], 'no journal beside it')
  })
  t.notOk(existsSync(file), 'the reviews file is not made')
  t.same(readdirSync(dir).sort(), ['.judge', 'spam.judge.yaml'])
  t.same(readdirSync(join(dir, '.judge')), ['spam.reviews.csv.lock'], 'nothing but the lock file, and no store')
})

t.test('every path to one file names one lock: symbolic links are resolved', async (t) => {
  const dir = t.testdir({ real: { 'spam.reviews.csv': 'reviewed_at\n' } })
  symlinkSync(join(dir, 'real'), join(dir, 'linked'))
  symlinkSync(join(dir, 'real', 'spam.reviews.csv'), join(dir, 'other.csv'))
  const lock = join(dir, 'real', '.judge', 'spam.reviews.csv.lock')
  t.equal(lockFileOf(join(dir, 'linked', 'spam.reviews.csv')), lock)
  t.equal(lockFileOf(join(dir, 'other.csv')), lock)
  mkdirSync(join(dir, 'real', 'later'))
  t.equal(
    lockFileOf(join(dir, 'linked', 'later', 'new.csv')),
    join(dir, 'real', 'later', '.judge', 'new.csv.lock'),
    'a file not made yet, by its folder',
  )
})

t.test(
  "a file whose folder does not exist cannot be locked: the error is the file system's, and the work never runs",
  async (t) => {
    const dir = t.testdir({})
    await t.rejects(
      createSqliteFileLock().hold(join(dir, 'missing', 'spam.reviews.csv'), async () => t.fail('ran')),
      { code: 'ENOENT' },
    )
    t.notOk(existsSync(join(dir, 'missing')), 'the folder is not made')
    writeFileSync(join(dir, 'plain'), '')
    await t.rejects(
      createSqliteFileLock().hold(join(dir, 'plain', 'r.csv'), async () => t.fail('ran')),
      { code: 'ENOTDIR' },
    )
  },
)
