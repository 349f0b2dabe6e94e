import t from 'tap'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli } from '../../helpers/cli.ts'
import { CANDIDATE_ASK, KEY, LIVE_ASK, message, scripted, setup, spamSpec } from '../../helpers/replay-project.ts'
import { startSystemOneServer } from '../../helpers/system-one-server.ts'

t.test('a replay reuses shadow answers, asks only the rest, and reports the hand-computed comparison', async (t) => {
  const { dir, engine, env, before } = await setup(t)
  t.equal(before, 10 + 4, 'ten live requests, four shadow requests')
  const result = await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(result.code, 0, result.stderr)
  const asked = engine.requests.slice(before)
  t.same(
    asked.map((r) => r.body.state.message).sort(),
    [4, 5, 6, 7, 8, 9, 10].map(message).sort(),
    'shadowed rows 0-3 are not asked again',
  )
  const both = asked.filter((r) => Object.keys(r.body.questions).length === 2).map((r) => r.body.state.message)
  t.same(both, [message(10)], 'the unchanged topic question is asked only for the row never judged live')
  const report = JSON.parse(result.stdout)
  t.match(report, {
    live: { judgment: 'spam' },
    candidate: { judgment: 'spam-v2' },
    kept: 11,
    replayed: 11,
    live_only: [],
    candidate_only: [],
  })
  t.match(report.questions.is_spam, {
    rows: 10,
    agree: 7,
    agreement: 0.7,
    live_missing: 1,
    distance: 0.1,
    changed: 3,
    confusion: { yes: { yes: 3, no: 1 }, no: { yes: 2, no: 4 } },
    live_mix: { yes: 0.4, no: 0.6 },
    candidate_mix: { yes: 0.5, no: 0.5 },
  })
  t.same(
    report.questions.is_spam.sample.map((r: { state: { message: string } }) => r.state.message).sort(),
    [3, 4, 5].map(message),
  )
  // The candidate asked topic for msg 10 in the live wording and model: that is the live answer too.
  t.match(report.questions.topic, { rows: 11, agreement: 1, distance: 0, changed: 0, live_missing: 0 })
  t.same(report.totals, { cost: report.run.cost, asked: 8, cached: 14, requests: 7 })
  t.match(report.run, { judgment: 'spam-v2', rows: 11, asked: 8, cached: 14, requests: 7, status: 'complete' })
  const runs = JSON.parse((await cli(['runs', 'candidates/spam-v2.judge.yaml', '--json'], env, dir)).stdout)
  t.same(
    runs.map((r: { run_id: string }) => r.run_id),
    [report.run.run_id],
    'the candidate run is recorded',
  )

  const again = JSON.parse(
    (await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml', '--json'], env, dir)).stdout,
  )
  t.equal(engine.requests.length, before + 7, 'a second replay asks nothing')
  t.same(again.questions, report.questions)
  t.match(again.run, { asked: 0, cached: 22, cost: 0 })
})

t.test('the human report shows agreement, mixes, distance, confusion, changed rows and cost', async (t) => {
  const { dir, env } = await setup(t)
  const result = await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml'], env, dir)
  t.equal(result.code, 0, result.stderr)
  const out = result.stdout
  t.match(out, /^candidate spam-v2 against live spam: 11 kept rows, 11 replayed\n/)
  t.match(out, /cost \$[\d.]+: 14 answers cached, 8 asked in 7 requests; run \S+ complete/)
  t.match(out, /is_spam: 10 rows compared, agreement 70\.0% \(7 of 10\), mix distance 0\.100\n/)
  t.match(out, /live mix {7}no 60\.0% {2}yes 40\.0%/)
  t.match(out, /candidate mix {2}yes 50\.0% {2}no 50\.0%/)
  t.match(out, /live \\ candidate {2}yes {2}no\n {2}yes {15}3 {4}1\n {2}no {16}2 {4}4/)
  t.match(out, /3 rows would change:\n(?: {4}[0-9a-f]{16} {2}(yes -> no|no -> yes) {2}\{"message":"msg [345]"\}\n){3}/)
  t.match(out, /1 kept row has no live answer in the store .* and is left out/)
  t.match(out, /topic: 11 rows compared, agreement 100\.0% \(11 of 11\), mix distance 0\.000\n/)
  t.match(out, /no row would change/)
})

t.test('a candidate folder is paired with the live judgment of the same name', async (t) => {
  const { dir, env } = await setup(t, { shadowed: 0 })
  mkdirSync(join(dir, 'next'))
  writeFileSync(
    join(dir, 'next/spam.judge.yaml'),
    spamSpec('spam', CANDIDATE_ASK).replace(
      '  topic:',
      '  tone:\n    ask: Is it friendly?\n    type: yes_no\n  topic:',
    ),
  )
  writeFileSync(join(dir, 'next/other.judge.yaml'), spamSpec('other', LIVE_ASK))
  const result = await cli(['replay', 'next', '--live', '.', '--node', 'spam', '--json'], env, dir)
  t.equal(result.code, 0, result.stderr)
  const report = JSON.parse(result.stdout)
  t.match(report, { candidate: { judgment: 'spam' }, candidate_only: ['tone'] })
  t.match(report.questions.is_spam, { agreement: 0.7, distance: 0.1 })
  const missing = await cli(['replay', 'next', '--live', 'candidates'], env, dir)
  t.match(missing, {
    code: 2,
    stderr: /candidate folder .*next holds no judgment named spam-v2 \(it holds other, spam\)/,
  })
})

t.test('above JUDGE_MAX_COST nothing is asked, the plan is printed and no run is recorded', async (t) => {
  const { dir, engine, env, before } = await setup(t)
  const result = await cli(
    ['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml'],
    { ...env, JUDGE_MAX_COST: '0.000001' },
    dir,
  )
  t.equal(result.code, 2)
  t.match(
    result.stderr,
    /judgment\s+rows\s+states\s+duplicates\s+cached\s+to ask[\s\S]*spam-v2\s+11\s+11\s+0\s+14\s+8\s+7/,
  )
  t.match(
    result.stderr,
    /judgment spam-v2: asking 8 answers in 7 requests would cost an estimated \$[\d.]+, above the cap of \$0\.000001; nothing was asked/,
  )
  t.equal(engine.requests.length, before)
  t.same(JSON.parse((await cli(['runs', 'candidates/spam-v2.judge.yaml', '--json'], env, dir)).stdout), [])
})

t.test('a candidate needing a column the kept state lacks is refused before asking, naming the row', async (t) => {
  const { dir, engine, env, before } = await setup(t, { keep: 2, shadowed: 0 })
  writeFileSync(
    join(dir, 'candidates/spam-v2.judge.yaml'),
    spamSpec('spam-v2', CANDIDATE_ASK).replace('state: [message]', 'state: [message, sender]'),
  )
  const result = await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml'], env, dir)
  t.match(result, { code: 2, stderr: /kept row [0-9a-f]{16} of spam: the row lacks the state column "sender"/ })
  t.equal(engine.requests.length, before)
})

t.test('without ENGINE_API_KEY a replay that must ask exits 2 naming it', async (t) => {
  const { dir, engine, before } = await setup(t)
  const result = await cli(
    ['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml'],
    { ENGINE_URL: engine.url },
    dir,
  )
  t.match(result, { code: 2, stderr: /ENGINE_API_KEY is not set; nothing was asked/ })
  t.equal(engine.requests.length, before)
})

t.test('no kept rows: a clear message, exit 0, nothing judged and no run', async (t) => {
  const { dir, engine, env, before } = await setup(t, { keep: 0, shadowed: 0 })
  const text = await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml'], env, dir)
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /no rows are kept for spam, so there is nothing to replay: send live requests with "log": true/)
  const json = JSON.parse(
    (await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml', '--json'], env, dir)).stdout,
  )
  t.match(json, {
    kept: 0,
    replayed: 0,
    run: null,
    totals: { asked: 0, cost: 0 },
    questions: { is_spam: { rows: 0, agreement: null, distance: null } },
  })
  t.equal(engine.requests.length, before)
  t.same(JSON.parse((await cli(['runs', 'candidates/spam-v2.judge.yaml', '--json'], env, dir)).stdout), [])
})

t.test(
  'an engine failing midway past ENGINE_GIVE_UP_S fails the run, records it, and reports the rows replayed',
  async (t) => {
    const { dir, env } = await setup(t)
    const flaky = await startSystemOneServer({
      expectKey: KEY,
      answer: scripted,
      reply: (_r, i) => (i >= 3 ? { status: 500, body: { detail: 'overloaded' } } : undefined),
    })
    t.teardown(() => flaky.close())
    const result = await cli(
      ['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml', '--json', '--concurrency', '1'],
      { ...env, ENGINE_URL: flaky.url, ENGINE_GIVE_UP_S: '1' },
      dir,
    )
    t.equal(result.code, 1)
    const report = JSON.parse(result.stdout)
    t.match(report.run, { status: /^failed: .*500.*overloaded/, rows: 7 })
    t.equal(report.replayed, 7, 'four shadowed rows and three asked')
    t.equal(JSON.parse((await cli(['runs', 'candidates/spam-v2.judge.yaml', '--json'], env, dir)).stdout).length, 1)
  },
)

t.test('usage errors exit 2, and a folder of several live judgments needs --node', async (t) => {
  const { dir, env } = await setup(t, { keep: 1, shadowed: 0 })
  t.match(await cli(['replay', '--help'], env, dir), { code: 0, stdout: /^usage: judge replay <candidate> --live/ })
  t.match(await cli(['replay', 'candidates'], env, dir), { code: 2, stderr: /--live PATH/ })
  t.match(await cli(['replay', '--live', 'spam.judge.yaml'], env, dir), {
    code: 2,
    stderr: /expected one spec file or folder/,
  })
  t.match(await cli(['replay', 'candidates', '--live', 'spam.judge.yaml', '--concurrency', 'x'], env, dir), {
    code: 2,
    stderr: /--concurrency must be/,
  })
  writeFileSync(join(dir, 'ham.judge.yaml'), spamSpec('ham', LIVE_ASK))
  t.match(await cli(['replay', 'candidates', '--live', '.'], env, dir), {
    code: 2,
    stderr: /holds 2 judgments \(ham, spam\); name one with --node NAME\n/,
  })
  t.match(await cli(['replay', 'candidates', '--live', '.', '--node', 'nope'], env, dir), {
    code: 2,
    stderr: /unknown node "nope"/,
  })
  t.equal((await cli(['replay', 'candidates', '--live', '.', '--node', 'spam'], env, dir)).code, 0)
})
