import t, { type Test } from 'tap'
import { stringify } from 'csv-stringify/sync'
import { cli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { NO_PROMTOOL, promtoolCheck, valueOf } from './helpers/metrics.ts'
import { smsMessages } from './helpers/sms.ts'
import { candidateYaml, SPAM_YAML } from './helpers/specs.ts'

// Simulated answers cost nothing: every output that shows their cost says so in these words.
const SIMULATED = String.raw`would cost \$[\d.]+ on System One \(simulated: nothing spent\)`
const MESSAGES = [...new Set(smsMessages().map((r) => r.message))]
const rows = (from: number, to: number) => stringify([['message'], ...MESSAGES.slice(from, to).map((m) => [m])])
const ENV = { ENGINE: 'simulated' }

function project(t: Test) {
  return t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    'rows.csv': rows(0, 40),
    'later.csv': rows(40, 60),
    candidates: { 'spam-v2.judge.yaml': candidateYaml(['personal', 'promotion', 'service']) },
  })
}

t.test('run, runs, plan and stability say the cost of simulated answers one way', async (t) => {
  const dir = project(t)
  const plan = await cli(['plan', 'spam.judge.yaml', '--data', 'rows.csv'], ENV, dir)
  t.match(plan.stdout, new RegExp(String.raw`\nspam\s+40\s+40\s+0\s+0\s+120\s+40\s+${SIMULATED}\s+none\n`))
  t.match(plan.stdout, /\nJUDGE_MAX_COST does not apply to the simulated engine, which spends nothing\n/)
  t.match(plan.stdout, new RegExp(String.raw`\nspam\.is_spam\s+[0-9a-f]{16}\s+no run recorded it\s+0\s+${SIMULATED}\n`))
  const run = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], ENV, dir)
  t.match(run.stdout, new RegExp(`asked in 40 requests, ${SIMULATED}; complete`))
  const runs = await cli(['runs', 'spam.judge.yaml'], ENV, dir)
  t.match(runs.stdout, new RegExp(String.raw`\s40\s+120\s+${SIMULATED}\s+simulated-1\s`))
  const stability = await cli(['stability', 'spam.judge.yaml', '--sample', '10'], ENV, dir)
  t.equal(stability.code, 0, stability.stderr)
  t.match(
    stability.stdout,
    new RegExp(String.raw`^spam: \d+ states asked again in \d+ requests, ${SIMULATED}, model simulated-1\n`),
  )
})

t.test('stability against the simulated engine finds no flip, and says that the noise moves no route', async (t) => {
  const dir = project(t)
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], ENV, dir)).code, 0)
  const text = (await cli(['stability', 'spam.judge.yaml', '--sample', '10'], ENV, dir)).stdout
  t.match(text, /\n  is_spam: flip rate 0\.0% .*\n    route flips 0\.0% /)
  t.match(
    text,
    /\n    no p moved when asked again, so the noise carries no stored answer across a p threshold \(0\.95\)\n/,
  )
  t.notMatch(text, /can move their route/, 'no route said to move when nothing moved')
  const json = JSON.parse((await cli(['stability', 'spam.judge.yaml', '--sample', '10', '--json'], ENV, dir)).stdout)
  t.match(json.spam.questions.is_spam.near_threshold, { within: 0, count: 0, share: 0, answers: 40 })
})

t.test('compare --data and replay say the cost of simulated answers the same way', async (t) => {
  const dir = project(t)
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], ENV, dir)).code, 0)
  const compare = await cli(
    ['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--data', 'later.csv'],
    ENV,
    dir,
  )
  t.match(compare.stdout, new RegExp(String.raw`\n  this comparison: \d+ answers cached, \d+ asked, ${SIMULATED}\n`))
  const per1000 = String.raw`would cost \$[\d.]+ per 1,000 rows on System One \(simulated: nothing spent\)`
  t.match(compare.stdout, new RegExp(String.raw`\n  live       spec [0-9a-f]{16}, model simulated-1, ${per1000}\n`))
  const server = await startJudgeServer(t, dir, ENV)
  for (const message of MESSAGES.slice(0, 3))
    t.equal((await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message }, log: true })).status, 200)
  const replay = await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml'], ENV, dir)
  t.equal(replay.code, 0, replay.stderr)
  t.match(replay.stdout, new RegExp(String.raw`\n${SIMULATED}: \d+ answers cached, \d+ asked in \d+ requests; run `))
})

t.test('the server counts simulated answers apart from its spend, in /metrics, /v1/spend and on /', async (t) => {
  const dir = project(t)
  const server = await startJudgeServer(t, dir, ENV)
  for (const message of MESSAGES.slice(0, 2))
    t.equal((await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message } })).status, 200)
  await server.running.handler.idle(5000)
  const metrics = (await server.get('/metrics')).text
  t.equal(valueOf(metrics, 'judge_engine_requests_total{status="200"}'), 2)
  t.equal(valueOf(metrics, 'judge_engine_cost_usd_total'), 0, 'nothing spent')
  t.ok(valueOf(metrics, 'judge_engine_simulated_cost_usd_total') > 0, 'what it would have cost, apart')
  t.equal(promtoolCheck(metrics), '', 'promtool check metrics passes', { skip: NO_PROMTOOL })
  const spend = (await server.get('/v1/spend?path=spam.judge.yaml')).body
  t.match(spend, { daily_cap: null, today: { cost: 0, requests: 0 }, days: [] })
  t.match(spend.simulated, { today: { requests: 2 }, days: [{ requests: 2 }] })
  t.ok(spend.simulated.today.cost > 0)
  t.equal(spend.simulated.days[0].cost, spend.simulated.today.cost)
  t.match(
    (await server.get('/')).text,
    new RegExp(
      String.raw`Engine spend by the server today \(UTC\): \$0\.00 in 0 requests, no daily cap; ` +
        `simulated answers today: 2 requests, ${SIMULATED}</p>`,
    ),
  )
})
