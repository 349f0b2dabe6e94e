import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { setTimeout as delay } from 'node:timers/promises'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { readConfig } from '../src/config.ts'
import { startServer } from '../src/http/server.ts'
import { cli, startCli } from './helpers/cli.ts'
import { smsMessages } from './helpers/sms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

const ROWS = [...new Set(smsMessages().map((r) => r.message))].slice(0, 60)
const FILES = { 'spam.judge.yaml': SPAM_YAML, 'rows.csv': stringify([['message'], ...ROWS.map((m) => [m])]) }
const QUESTIONS = 3
const KEY = { ENGINE_API_KEY: 'k', ENGINE_RPM: '0', ENGINE_TIMEOUT_MS: '120000' }

t.test(
  'a run killed with -9 midway is recorded failed: interrupted with what it spent, and the runs add up',
  async (t) => {
    const root = t.testdir({ killed: { ...FILES }, whole: { ...FILES } })
    const dir = join(root, 'killed')
    // A slow engine that answers 20 requests, then hangs: the run is killed with 20 rows stored.
    const slow = await startSystemOneServer({ expectKey: 'k', latencyMs: 20, hangFrom: 20 })
    t.teardown(() => slow.close())
    const env = { ENGINE_URL: slow.url, ...KEY }
    const child = startCli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--concurrency', '4'], env, dir, 'ignore')
    const exited = new Promise<string | null>((done) => child.on('close', (_code, signal) => done(signal)))
    while (slow.answered.length < 20) await delay(10)
    const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
    t.teardown(() => store.close())
    // Killed once the run has written down the 20 answered requests: nothing else is coming.
    while (store.openRuns()[0]?.run.requests !== 20) await delay(10)
    t.equal(store.listRuns(['spam'], 50).length, 0, 'a run still going is in no listing')
    child.kill('SIGKILL')
    t.equal(await exited, 'SIGKILL')

    // The server finds it first: its /v1/runs adds up as `judge runs` does.
    const server = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), { log: () => {} })
    const served = (await (await fetch(`${server.url}/v1/runs?path=spam.judge.yaml`)).json()) as {
      status: string
      rows: number
      asked: number
    }[]
    await server.stop(1000)
    t.match(served, [{ status: 'failed: interrupted', rows: 20, asked: 20 * QUESTIONS }])
    const listed = await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)
    t.equal(listed.code, 0, listed.stderr)
    const [killed] = JSON.parse(listed.stdout)
    t.match(killed, { status: 'failed: interrupted', rows: 20, states: 20 })
    const stored = new DatabaseSync(join(dir, '.judge/store.sqlite'), { readOnly: true })
    t.teardown(() => stored.close())
    t.equal(
      killed.asked,
      (stored.prepare('SELECT count(*) AS n FROM _judge_answers').get() as { n: number }).n,
      'every answer it stored is counted as asked',
    )
    t.equal(killed.asked, 20 * QUESTIONS)
    t.ok(killed.cost > 0)
    t.same(store.openRuns(), [], 'the run is no longer open')

    const healthy = await startSystemOneServer({ expectKey: 'k' })
    t.teardown(() => healthy.close())
    const rerun = await cli(
      ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'],
      { ENGINE_URL: healthy.url, ...KEY },
      dir,
    )
    t.equal(rerun.code, 0, rerun.stderr)
    t.equal(healthy.requests.length, 40, 'the rerun asks only the 40 rows missing')
    const [resumed] = JSON.parse(rerun.stdout)
    t.match(resumed, { status: 'complete', requests: 40, cached: 20 * QUESTIONS })

    // The same rows asked in one go, in a store of their own, cost what the two runs cost together.
    const whole = join(root, 'whole')
    const once = await startSystemOneServer({ expectKey: 'k' })
    t.teardown(() => once.close())
    const [reference] = JSON.parse(
      (await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], { ENGINE_URL: once.url, ...KEY }, whole))
        .stdout,
    )
    const runs = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)).stdout) as {
      cost: number
      asked: number
    }[]
    t.equal(runs.length, 2)
    t.equal(
      runs.reduce((sum, r) => sum + r.asked, 0),
      reference.asked,
      'the runs listed asked what one whole run asks',
    )
    t.ok(Math.abs(runs.reduce((sum, r) => sum + r.cost, 0) - reference.cost) < 1e-9, 'and spent what it spends')
  },
)
