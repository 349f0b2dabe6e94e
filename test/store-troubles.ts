import t from 'tap'
import { rmSync } from 'node:fs'
import { cli, spawnCli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { holdWriteLock } from './helpers/lock-holder.ts'
import { fillDisk, mountProblem, mountTmpfs, remount } from './helpers/mounts.ts'
import { copyProject, SIMULATED, STORED_MESSAGE, storeProject } from './helpers/store-project.ts'

// The store's known troubles, each on a real file system: a disk that fills up (a small tmpfs), a
// read-only store (a tmpfs remounted read-only: root, as the tests run, ignores file permissions
// but not a read-only mount), and a store locked by another writer past the busy timeout.

const CANNOT_MOUNT = mountProblem() ?? false
const ANSWERS = 3525
const row = (message: string) => ({ path: 'sms/spam.judge.yaml', row: { message } })

t.test(
  'a run that fills the disk says to free space and run again and how many answers are kept; run again, it asks only the rest',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const root = mountTmpfs(t, 1536 * 1024)
    const project = copyProject(root)
    const first = await spawnCli(['run', 'spam.judge.yaml'], SIMULATED, project.dir)
    t.not(first.code, 0, 'the run does not complete')
    const kept = Number(
      /: the disk is full, nothing more can be saved: free space and run again: (\d+) answers are kept/.exec(
        first.stderr,
      )?.[1],
    )
    t.ok(kept > 0 && kept < ANSWERS, `${kept} answers kept, said on standard error`)
    t.match(first.stderr, `${project.store}: the disk is full`)
    t.notMatch(first.stderr, /unexpected error|\n\s+at /, 'no stack')
    remount(root, 16 << 20)
    const second = await cli(['run', 'spam.judge.yaml', '--json'], SIMULATED, project.dir)
    t.equal(second.code, 0, second.stderr)
    const [run] = JSON.parse(second.stdout)
    t.ok(run.cached >= kept, `the ${kept} answers kept are not asked again (${run.cached} cached)`)
    t.equal(run.cached + run.asked, ANSWERS, 'and the rest are asked')
  },
)

t.test(
  'a server on a full disk answers 503 with the same message, keeps reading, and writes again once space is freed',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const root = mountTmpfs(t, 8 << 20)
    const project = await storeProject(root)
    const server = await startJudgeServer(t, root, SIMULATED)
    t.equal((await server.post('/v1/judge', row('a first new row'))).status, 200)
    const filler = fillDisk(root)
    const full = await server.post('/v1/judge', row('a row asked while the disk is full'))
    t.equal(full.status, 503)
    t.equal(
      full.body.error,
      `${project.shown}: the disk is full, nothing more can be saved: free space and run again: 3 answers are kept`,
    )
    t.equal((await server.get('/v1/runs?path=sms/spam.judge.yaml')).status, 200, 'reads are served')
    t.equal((await server.get('/review?path=sms/spam.judge.yaml&reviewer=ann')).status, 200)
    t.match(server.logs.join('\n'), /store trouble on POST \/v1\/judge: sms\/.judge\/store.sqlite: the disk is full/)
    rmSync(filler)
    t.equal(
      (await server.post('/v1/judge', row('a row asked while the disk is full'))).status,
      200,
      'the same row, once space is freed',
    )
  },
)

t.test(
  'a store on a read-only mount: read commands and pages work, writes say why they cannot',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const root = mountTmpfs(t, 8 << 20)
    const project = await storeProject(root)
    remount(root, 'ro')
    const runs = await spawnCli(['runs', 'spam.judge.yaml'], SIMULATED, project.dir)
    t.equal(runs.code, 0, runs.stderr)
    t.match(runs.stdout, /complete/)
    const readOnly = `${project.store} is read-only (${project.store} is not writable (EROFS)): nothing can be saved in it, and reading it works`
    const run = await spawnCli(['run', 'spam.judge.yaml'], SIMULATED, project.dir)
    t.equal(run.code, 2)
    t.match(run.stderr, `judge run: ${readOnly}`)
    t.notMatch(run.stderr, /unexpected error|\n\s+at /)
    const server = await startJudgeServer(t, root, SIMULATED)
    for (const path of [
      '/',
      '/v1/runs?path=sms/spam.judge.yaml',
      '/runs?path=sms/spam.judge.yaml',
      '/accuracy?path=sms/spam.judge.yaml',
      '/review?path=sms/spam.judge.yaml&reviewer=ann',
    ]) {
      t.equal((await server.get(path)).status, 200, path)
    }
    t.equal((await server.post('/v1/judge', row(STORED_MESSAGE))).status, 200, 'a stored row is answered')
    const write = await server.post('/v1/judge', row('a row the store has never seen'))
    t.equal(write.status, 503)
    t.match(write.body.error, `${project.shown} is read-only (${project.shown} is not writable (EROFS))`)
  },
)

t.test('a store locked by another writer past the busy timeout names the file and the writer', async (t) => {
  const project = await storeProject(t.testdir())
  const held = await holdWriteLock(t, project.store)
  const locked = `stayed locked by another writer (pid ${held.pid}: node hold-write-lock.ts store.sqlite) past the busy timeout of 5 s; nothing was saved: try again once it is done`
  const run = await spawnCli(['run', 'spam.judge.yaml'], SIMULATED, project.dir)
  t.equal(run.code, 2)
  t.match(run.stderr, `judge run: ${project.store} ${locked}`)
  const server = await startJudgeServer(t, project.root, SIMULATED)
  const write = await server.post('/v1/judge', row('a row the store has never seen'))
  t.equal(write.status, 503)
  t.equal(write.headers.get('retry-after'), '1')
  t.equal(write.body.error, `${project.shown} ${locked}`)
  await held.release()
  t.equal(
    (await server.post('/v1/judge', row('a row the store has never seen'))).status,
    200,
    'once the writer is done',
  )
})
