import t, { type Test } from 'tap'
import { cpSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildExampleStore } from '../examples/build-store.ts'
import { cli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'

const SIMULATED = { ENGINE: 'simulated' }

t.test('the example store builds without an engine key: two runs with drift, kept rows and shadow pairs', async (t) => {
  const root = t.testdir({})
  cpSync(resolve(import.meta.dirname, '../examples'), root, {
    recursive: true,
    filter: (src) => !src.includes('/.judge'),
  })
  let printed = ''
  const out = { write: (s: string) => (printed += s) }
  t.equal(await buildExampleStore(false, root, out), 0)
  t.match(printed, /spam: 1200 rows[^]*spam: 400 rows/)
  t.ok(existsSync(join(root, 'sms/.judge/store.sqlite')))
  t.equal(await buildExampleStore(false, root, out), 0, 'a built store is left alone')
  const dir = join(root, 'sms')
  const runs = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)).stdout)
  t.same(
    runs.map((r: { rows: number }) => r.rows),
    [400, 1200],
  )
  t.same(
    runs.map((r: { model: string }) => r.model),
    ['simulated-1', 'simulated-1'],
    'the run records say simulated',
  )
  const drift = JSON.parse((await cli(['drift', 'spam.judge.yaml', '--json'], {}, dir)).stdout)
  t.ok(drift.is_spam[1].alert, 'the second run drifts')
  const replay = await cli(
    ['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml', '--json'],
    SIMULATED,
    dir,
  )
  t.equal(replay.code, 0, replay.stderr)
  t.match(JSON.parse(replay.stdout), { kept: 60, live: { model: 'simulated-1' } })
  const test = await cli(['test', 'spam.judge.yaml', '--json'], SIMULATED, dir)
  t.equal(test.code, 0, test.stderr)
  t.ok(JSON.parse(test.stdout).spam.is_spam.counted > 250, 'the key is answered from the store')
  // The shipped verdicts (examples/make-reviews.ts): 110 lines, 5 of them second reviews of a row.
  t.match(
    JSON.parse(test.stdout).spam.is_spam,
    { reviewed: 105, pending: 0, estimate: { estimable: true } },
    'every shipped verdict stands on a row of the built store',
  )
  const [real] = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir)).stdout)
  t.equal(real.model, 'jev-1.13.0')
  t.equal(real.ask, real.states * 3, 'the real model finds none of the simulated answers')
  await likeRuns(t, root, runs)
})

/** After the build, as a new user would: the default data twice, then the later messages again. */
async function likeRuns(t: Test, root: string, built: { run_id: string; source: string }[]): Promise<void> {
  const [later, messages] = built
  t.same(
    built.map((r) => r.source),
    ['later.csv', 'messages.csv'],
  )
  for (const time of ['first', 'second']) {
    const run = await cli(['run', 'sms'], SIMULATED, root)
    t.equal(run.code, 0, run.stderr)
    t.notMatch(
      run.stdout,
      /same data: change [\d.]+ \(drift alert/,
      `the ${time} run of the default data raises no like-runs alert`,
    )
    t.match(run.stdout, /same data: compared with run \S+, the previous complete `run` of messages\.csv;/)
    if (time === 'first')
      t.match(run.stdout, `compared with run ${messages.run_id},`, 'not with the run of later.csv that came last')
  }
  const again = await cli(['run', 'sms', '--data', 'sms/later.csv'], SIMULATED, root)
  t.match(again.stdout, `same data: compared with run ${later.run_id}, the previous complete \`run\` of later.csv;`)
  t.match(again.stdout, /other data: compared with run \S+, the previous complete `run` of messages\.csv;/)
  t.match(again.stdout, /is_spam: .*; same data: change 0\.000; other data: change 0\.\d+ \(drift alert/)
  const server = await startJudgeServer(t, root, SIMULATED)
  t.equal(
    (await server.get('/v1/accuracy?path=sms')).body.questions.is_spam.estimate.estimable,
    true,
    'the accuracy page has an estimate to show',
  )
  const every = (await server.get('/v1/drift?path=sms')).body.is_spam
  t.ok(
    every.filter((e: { alert: boolean }) => e.alert).length >= 3,
    'GET /v1/drift keeps every run against the previous one, alerts and all',
  )
  const page = (await server.get('/runs?path=sms')).text
  t.ok(
    page.indexOf('<h2>Drift and label mix</h2>') < page.indexOf('<h2>Runs</h2>'),
    '/runs leads with drift between like runs',
  )
  t.match(
    page,
    /<h4><code>is_spam<\/code> <span class="muted">same data: change 0\.000 since run <code>\S+<\/code>, the previous complete <code>run<\/code> of <code>later\.csv<\/code><\/span> <span class="alert other-data">· drift: other data: change 0\.\d+ since run <code>\S+<\/code>, the previous complete <code>run<\/code> of <code>messages\.csv<\/code>; the data moved, above 0\.10 \(p &lt; 0\.001\)<\/span><\/h4>/,
    'the latest run against its like run, and against the run of other data before it: the data moved',
  )
  t.notMatch(page, /<span class="alert">drift:/, 'no red alarm on the same data')
  t.match(
    page,
    /<span class="flag" title="change 0\.\d+ above 0\.10">drift<\/span>/,
    'the chart marks new data as drift',
  )
  const tested = await cli(['test', 'sms'], SIMULATED, root)
  t.equal(tested.code, 0, tested.stderr)
  const after = (await server.get('/runs?path=sms')).text
  t.match(
    after,
    /<h4><code>is_spam<\/code> <span class="muted">same data: change 0\.000 since run <code>\S+<\/code>, the previous complete <code>test<\/code> of <code>answer key<\/code><\/span> <span class="muted unlike">· change 0\.\d+ from the run before it, <code>run<\/code> of <code>later\.csv<\/code>: unlike rows, not drift<\/span>/,
    "the answer key's test run after a data file's run: no drift alarm, the change named as one between unlike runs",
  )
  t.notMatch(after, /<span class="alert">drift:/)
  t.match(page, /<h5><code>run<\/code> of <code>messages\.csv<\/code><\/h5>/)
}
