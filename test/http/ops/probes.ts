import t from 'tap'
import { writeFileSync } from 'node:fs'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { fillDisk, mountProblem, mountTmpfs, remount } from '../../helpers/mounts.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { SIMULATED, storeProject } from '../../helpers/store-project.ts'

const CANNOT_MOUNT = mountProblem() ?? false

t.test('/healthz answers ok, and with a token configured it needs the token like every request', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'a-token-of-some-length' })
  t.equal((await server.get('/healthz')).status, 401)
  const ok = await server.get('/healthz', { authorization: 'Bearer a-token-of-some-length' })
  t.equal(ok.status, 200)
  t.same(ok.body, { status: 'ok' })
  t.equal((await server.get('/readyz')).status, 401)
  t.equal((await server.get('/readyz?token=a-token-of-some-length')).status, 200)
})

t.test(
  '/readyz is ready when each store can be read, a store not made yet included, and names each store',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, other: { 'spam.judge.yaml': SPAM_YAML } })
    const server = await startJudgeServer(t, dir)
    const missing = await server.get('/readyz')
    t.equal(missing.status, 200)
    t.same(missing.body.reasons, [])
    t.same(
      missing.body.stores.map((s: { file: string; state: string }) => `${s.file} ${s.state}`),
      ['.judge/store.sqlite missing', 'other/.judge/store.sqlite missing'],
    )
    t.equal(
      (await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'hi' } })).status,
      503,
      'no engine key: nothing written',
    )
  },
)

t.test('/readyz is 503 when the served folder is gone or a store is not a store, and says why', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, '.judge': { 'store.sqlite': 'not a database, just text' } })
  const server = await startJudgeServer(t, dir)
  const broken = await server.get('/readyz')
  t.equal(broken.status, 503)
  t.equal(broken.body.status, 'unavailable')
  t.equal(broken.body.stores[0].state, 'not a store')
  t.match(broken.body.reasons[0], /^\.judge\/store\.sqlite: .*not a judge store|^\.judge\/store\.sqlite: /)
  t.notMatch(broken.text, dir, 'the served folder is not shown')
  const gone = await startJudgeServer(t, `${dir}/nowhere`)
  const none = await gone.get('/readyz')
  t.equal(none.status, 503)
  t.same(none.body.reasons, ['the served folder (JUDGE_PROJECTS) does not exist'])
})

t.test('/readyz names a store outside the served folder by its file name alone, never where it lies', async (t) => {
  const dir = t.testdir({
    '.judge': { 'store.sqlite': 'not a database, just text' },
    projects: { 'spam.judge.yaml': SPAM_YAML },
  })
  const server = await startJudgeServer(t, `${dir}/projects`)
  const above = await server.get('/readyz')
  t.equal(above.status, 503)
  t.match(above.body.stores[0], { file: '…/store.sqlite', state: 'not a store' })
  t.match(above.body.reasons[0], /^…\/store\.sqlite: …\/store\.sqlite is not a judge store/)
  t.notMatch(above.text, dir, 'no absolute path')
  t.notMatch(above.text, /"\/|\s\//, 'no path from the root at all')
})

t.test(
  '/readyz stays ready on a full disk and a read-only store, and reports each',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const root = mountTmpfs(t, 8 << 20)
    await storeProject(root)
    const server = await startJudgeServer(t, root, SIMULATED)
    t.equal((await server.get('/readyz')).body.stores[0].state, 'ok')
    fillDisk(root)
    const full = await server.get('/readyz')
    t.equal(full.status, 200)
    t.match(full.body.stores[0], { file: 'sms/.judge/store.sqlite', state: 'full', reads: true, writes: false })
    remount(root, 'ro')
    const readOnly = await server.get('/readyz')
    t.equal(readOnly.status, 200)
    t.match(readOnly.body.stores[0], { state: 'read-only', reads: true, writes: false })
  },
)

t.test('/readyz is 503 for a store whose header is damaged', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, '.judge': {} })
  writeFileSync(
    `${dir}/.judge/store.sqlite`,
    Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4080, 0xa5)]),
  )
  const server = await startJudgeServer(t, dir)
  const damaged = await server.get('/readyz')
  t.equal(damaged.status, 503)
  t.not(damaged.body.stores[0].state, 'ok')
  t.equal(damaged.body.stores[0].reads, false)
})
