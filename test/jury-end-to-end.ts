import t, { type Test } from 'tap'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { MIN_REVIEWED } from '../src/core/jury/dawid-skene.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { parseSpec } from '../src/core/spec/spec-parse.ts'
import { cli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { smsMessages } from './helpers/sms.ts'
import { confirmLabels, readStore, TRIO, TRIO_JURORS, TRIO_JURY } from './helpers/trio-cli.ts'

const MESSAGES = ['WIN a free prize now', 'See you at lunch', 'Your parcel is on its way']

function project(t: Test) {
  const dir = t.testdir({ 'trio.judge.yaml': TRIO, 'rows.csv': stringify([['message'], ...MESSAGES.map((m) => [m])]) })
  return { dir, env: { ENGINE: 'simulated', JUDGE_STORE: join(dir, 'store.sqlite') } }
}

function storeAnswers(dir: string, model: string, message: string) {
  const fp = parseSpec(TRIO, join(dir, 'trio.judge.yaml')).questions[0].fingerprint
  return readStore(dir, (store) => store.getAnswers(model, stateHash({ message }), [fp]).get(fp))
}

t.test('judge run on a jury asks each juror once per row and keeps the vote under the jury id', async (t) => {
  const { dir, env } = project(t)
  const run = await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv'], env, dir)
  t.equal(run.code, 0, run.stderr)
  for (const juror of TRIO_JURORS)
    t.ok(storeAnswers(dir, juror, MESSAGES[0]), `${juror}'s answer is kept under its model`)
  t.match(storeAnswers(dir, TRIO_JURY, MESSAGES[0]), { source: 'vote', dissent: 0, reportedModel: TRIO_JURY })
  const runs = await cli(['runs', 'trio.judge.yaml', '--json'], env, dir)
  t.equal(JSON.parse(runs.stdout)[0].model, TRIO_JURY, "the run is the jury's")
  const again = await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv', '--json'], env, dir)
  t.equal(again.code, 0, again.stderr)
  const second = await cli(['runs', 'trio.judge.yaml', '--json'], env, dir)
  t.match(JSON.parse(second.stdout)[0], { model: TRIO_JURY, asked: 0, rows: 3 }, 'a second run asks nothing')
})

t.test("POST /v1/judge on a jury answers with the jury's vote, a row judged before from the store", async (t) => {
  const { dir, env } = project(t)
  t.equal((await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv'], env, dir)).code, 0)
  const server = await startJudgeServer(t, dir, env)
  const known = await server.post('/v1/judge', { path: 'trio.judge.yaml', row: { message: MESSAGES[1] } })
  t.equal(known.status, 200, known.text)
  t.match(known.body.is_spam, { cached: true, p_source: 'vote' })
  const fresh = await server.post('/v1/judge', { path: 'trio.judge.yaml', row: { message: 'Call now to claim' } })
  t.equal(fresh.status, 200, fresh.text)
  t.match(fresh.body.is_spam, { cached: false, p_source: 'vote' })
  t.match(storeAnswers(dir, TRIO_JURY, 'Call now to claim'), { source: 'vote' })
  t.ok(storeAnswers(dir, 'simulated-b', 'Call now to claim'), "each juror's answer is kept")
})

t.test(
  `once people have reviewed ${MIN_REVIEWED} rows, the rows judged after get the jury's weighed answer`,
  async (t) => {
    const messages = [...new Set(smsMessages().map((r) => r.message))].slice(0, MIN_REVIEWED + 5)
    const dir = t.testdir({
      'trio.judge.yaml': TRIO,
      'first.csv': stringify([['message'], ...messages.slice(0, MIN_REVIEWED).map((m) => [m])]),
      'later.csv': stringify([['message'], ...messages.slice(MIN_REVIEWED).map((m) => [m])]),
    })
    const env = { ENGINE: 'simulated', JUDGE_STORE: join(dir, 'store.sqlite') }
    t.equal((await cli(['run', 'trio.judge.yaml', '--data', 'first.csv'], env, dir)).code, 0)
    const trio = parseSpec(TRIO, join(dir, 'trio.judge.yaml'))
    await confirmLabels(
      trio,
      messages
        .slice(0, MIN_REVIEWED)
        .map((message) => [message, storeAnswers(dir, TRIO_JURY, message)!.label] as const),
    )
    t.equal((await cli(['run', 'trio.judge.yaml', '--data', 'later.csv'], env, dir)).code, 0)
    t.match(storeAnswers(dir, TRIO_JURY, messages[0]), { source: 'vote' }, 'the answers before stand')
    t.match(
      storeAnswers(dir, TRIO_JURY, messages[MIN_REVIEWED]),
      { source: 'jury', dissent: 0 },
      'the later are weighed',
    )
  },
)
