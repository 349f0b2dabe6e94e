import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { limitNote } from '../../../src/cli/commands/run.ts'
import { cli } from '../../helpers/cli.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { smsCsv, smsMessages } from '../../helpers/sms.ts'
import { startSystemOneServer, type SystemOneServerOptions } from '../../helpers/system-one-server.ts'
import type { Test } from 'tap'

const KEY = 'test-key'

async function setup(t: Test, rows = 200, options: SystemOneServerOptions = {}) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(rows, 20) })
  const engine = await startSystemOneServer({ expectKey: KEY, ...options })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' }
  return { dir, engine, env }
}

t.test('the first run asks once per distinct state with every question; the second asks nothing', async (t) => {
  const { dir, engine, env } = await setup(t)
  const distinct = new Set(
    smsMessages()
      .slice(0, 200)
      .map((r) => r.message),
  ).size
  const plan = await cli(['plan', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(plan.code, 0, plan.stderr)
  const [p] = JSON.parse(plan.stdout)
  t.match(p, {
    judgment: 'spam',
    rows: 220,
    states: distinct,
    duplicates: 220 - distinct,
    ask: distinct * 3,
    requests: distinct,
    cached: 0,
    within_cap: true,
  })

  const first = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(first.code, 0, first.stderr)
  t.equal(engine.requests.length, distinct, 'one request per distinct state')
  t.ok(
    engine.requests.every((r) => Object.keys(r.body.questions).length === 3),
    'every question in each request',
  )
  const [run1] = JSON.parse(first.stdout)
  t.match(run1, {
    judgment: 'spam',
    rows: 220,
    asked: p.ask,
    requests: p.requests,
    cached: p.cached,
    status: 'complete',
  })
  t.ok(Math.abs(p.estimate - run1.cost) / run1.cost < 0.2, `estimate ${p.estimate} within 20% of cost ${run1.cost}`)

  const second = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(engine.requests.length, distinct, 'the second run sends no request')
  const [run2] = JSON.parse(second.stdout)
  t.equal(
    Object.values<number>(run2.routes.is_spam).reduce((sum, n) => sum + n, 0),
    220,
    '--json counts the rows per route',
  )
  t.same(run2.routes, run1.routes, 'the same rows take the same routes')
  t.match(run2, {
    rows: 220,
    states: distinct,
    duplicates: 220 - distinct,
    asked: 0,
    requests: 0,
    cached: distinct * 3,
    cost: 0,
    status: 'complete',
  })

  const runs = await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)
  t.same(
    JSON.parse(runs.stdout).map((r: { run_id: string }) => r.run_id),
    [run2.run_id, run1.run_id],
    'newest first',
  )
  const drift = JSON.parse((await cli(['drift', 'spam.judge.yaml', '--json'], env, dir)).stdout)
  t.same(Object.keys(drift), ['is_spam', 'topic', 'urgency'])
  t.equal(drift.is_spam.length, 2)
  t.equal(drift.is_spam[0].change, null)
  t.equal(drift.is_spam[1].change, 0, 'the same rows give the same mix')
})

t.test('the human summary shows counts, cost, the label mix and its change', async (t) => {
  const { dir, env } = await setup(t, 30)
  const first = await cli(['run', 'spam.judge.yaml'], env, dir)
  t.match(
    first.stdout,
    /spam: 50 rows \(20 duplicates of an earlier row\), 0 answers cached, 90 asked in 30 requests, cost \$[\d.]+; complete/,
  )
  t.match(
    first.stdout,
    /same data: first complete `run` of messages\.csv, nothing to compare with\n  is_spam: (yes|no) [\d.]+%/,
  )
  const routes =
    /\n  routes of is_spam: block (\d+) \([\d.]+%\), review (\d+) \([\d.]+%\), deliver (\d+) \([\d.]+%\)\n/.exec(
      first.stdout,
    )
  t.ok(routes, 'the rows each act route took, in the order of the rules')
  t.equal(
    routes!.slice(1).reduce((sum, n) => sum + Number(n), 0),
    50,
    'every row takes a route: the last rule has no condition',
  )
  const second = await cli(['run', 'spam.judge.yaml'], env, dir)
  t.match(second.stdout, /spam: 50 rows \(20 duplicates of an earlier row\), 90 answers cached, 0 asked/)
  t.match(
    second.stdout,
    /same data: compared with run \S+, the previous complete `run` of messages\.csv; a change here is the model \(or a rewritten file\) moving\n  is_spam: .*; same data: change 0\.000\n/,
  )
})

t.test('--out writes every row with its answers, in input order', async (t) => {
  const { dir, env } = await setup(t, 40)
  const result = await cli(['run', 'spam.judge.yaml', '--out', 'answers.csv', '--concurrency', '4'], env, dir)
  t.equal(result.code, 0, result.stderr)
  const rows: Record<string, string>[] = parse(readFileSync(join(dir, 'answers.csv')), { columns: true })
  t.equal(rows.length, 60)
  const expected: { id: string }[] = parse(smsCsv(40, 20), { columns: true })
  t.same(
    rows.map((r) => r.id),
    expected.map((r) => r.id),
  )
  t.match(rows[0], {
    is_spam: /^(yes|no)$/,
    'is_spam.p': /^[\d.]+$/,
    'is_spam.route': /^(block|review|deliver)$/,
    topic: /./,
    urgency: /^(low|medium|high)$/,
  })
})

t.test('JSON Lines rows judge like CSV rows and hit the same cache', async (t) => {
  const { dir, engine, env } = await setup(t, 10)
  await cli(['run', 'spam.judge.yaml'], env, dir)
  const asked = engine.requests.length
  writeFileSync(
    join(dir, 'rows.jsonl'),
    smsMessages()
      .slice(0, 10)
      .map((r) => JSON.stringify({ message: r.message, id: Number(r.id) }))
      .join('\n') + '\n',
  )
  const [run] = JSON.parse((await cli(['run', 'spam.judge.yaml', '--data', 'rows.jsonl', '--json'], env, dir)).stdout)
  t.equal(engine.requests.length, asked)
  t.match(run, { rows: 10, asked: 0, cached: 30 })
})

t.test('above JUDGE_MAX_COST nothing is asked, the plan is printed and the exit status is 2', async (t) => {
  const { dir, engine, env } = await setup(t, 50)
  const result = await cli(['run', 'spam.judge.yaml'], { ...env, JUDGE_MAX_COST: '0.0001' }, dir)
  t.equal(result.code, 2)
  t.match(result.stderr, /judgment\s+rows\s+states/)
  t.match(
    result.stderr,
    /judgment spam: asking \d+ answers in \d+ requests would cost an estimated \$[\d.]+, above the cap of \$0\.0001; nothing was asked/,
  )
  t.equal(engine.requests.length, 0)
  t.equal(JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout).length, 0, 'no run recorded')
})

t.test('without ENGINE_API_KEY a run that must ask exits 2 naming it and asks nothing', async (t) => {
  const { dir, engine } = await setup(t, 5)
  const result = await cli(['run', 'spam.judge.yaml'], { ENGINE_URL: engine.url }, dir)
  t.equal(result.code, 2)
  t.match(result.stderr, /ENGINE_API_KEY is not set; nothing was asked/)
  t.equal(engine.requests.length, 0)
})

t.test('without ENGINE_API_KEY a fully cached run still works', async (t) => {
  const { dir, engine, env } = await setup(t, 5)
  await cli(['run', 'spam.judge.yaml'], env, dir)
  const result = await cli(['run', 'spam.judge.yaml', '--json'], { ENGINE_URL: engine.url }, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(JSON.parse(result.stdout)[0], { asked: 0, status: 'complete' })
})

t.test(
  'an engine failing with 500s past ENGINE_GIVE_UP_S fails the run, records it, and keeps the answers received',
  async (t) => {
    const { dir, engine, env } = await setup(t, 30)
    let calls = 0
    engine.close()
    const flaky = await startSystemOneServer({
      expectKey: KEY,
      reply: (_r, i) => {
        calls = i + 1
        return i >= 10 ? { status: 500, body: { detail: 'overloaded' } } : undefined
      },
    })
    t.teardown(() => flaky.close())
    const flakyEnv = { ...env, ENGINE_URL: flaky.url, ENGINE_GIVE_UP_S: '1' }
    const result = await cli(['run', 'spam.judge.yaml', '--json', '--concurrency', '1'], flakyEnv, dir)
    t.equal(result.code, 1)
    const [run] = JSON.parse(result.stdout)
    t.match(run.status, /^failed: .*500.*overloaded/)
    t.equal(run.asked, 30, 'ten requests of three answers landed')
    t.ok(calls >= 11)
    const healthy = await startSystemOneServer({ expectKey: KEY })
    t.teardown(() => healthy.close())
    const distinct = new Set(
      smsMessages()
        .slice(0, 30)
        .map((r) => r.message),
    ).size
    const rerun = await cli(['run', 'spam.judge.yaml', '--json'], { ...env, ENGINE_URL: healthy.url }, dir)
    t.equal(healthy.requests.length, distinct - 10, 'the next run asks only the rest')
    t.match(JSON.parse(rerun.stdout)[0], { status: 'complete' })
    const runs = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout)
    t.equal(runs.length, 2, 'the failed run was recorded too')
  },
)

t.test('an engine answering garbage fails the run with a clear message', async (t) => {
  const { dir, env } = await setup(t, 3, { garbage: true })
  const result = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(result.code, 1)
  t.match(JSON.parse(result.stdout)[0].status, /^failed: .*JSON/i)
})

t.test('bad input exits 2 with what and where, and records nothing', async (t) => {
  const { dir, env, engine } = await setup(t, 3)
  writeFileSync(join(dir, 'no-message.csv'), 'id,text\n1,hello\n')
  const missing = await cli(['run', 'spam.judge.yaml', '--data', 'no-message.csv'], env, dir)
  t.equal(missing.code, 2)
  t.match(missing.stderr, /no-message\.csv:2: the row lacks the state column "message"/)
  const absent = await cli(['run', 'spam.judge.yaml', '--data', 'nope.csv'], env, dir)
  t.equal(absent.code, 2)
  t.match(absent.stderr, /nope\.csv: no such data file/)
  writeFileSync(join(dir, 'bad.jsonl'), '{"message": "ok"}\n{not json\n')
  const badJson = await cli(['run', 'spam.judge.yaml', '--data', 'bad.jsonl'], env, dir)
  t.match(badJson.stderr, /bad\.jsonl:2: not valid JSON/)
  writeFileSync(join(dir, 'bad.csv'), 'id,message\n1,"unterminated\n')
  const badCsv = await cli(['run', 'spam.judge.yaml', '--data', 'bad.csv'], env, dir)
  t.equal(badCsv.code, 2)
  t.match(badCsv.stderr, /bad\.csv.*not valid CSV/)
  writeFileSync(join(dir, 'broken.judge.yaml'), 'state: [message]\nquestions:\n  q:\n    ask: 3\n')
  const broken = await cli(['run', 'broken.judge.yaml', '--data', 'messages.csv'], env, dir)
  t.equal(broken.code, 2)
  t.match(broken.stderr, /broken\.judge\.yaml: questions\.q\.ask/)
  t.equal(engine.requests.length, 0)
  t.equal(JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout).length, 0)
})

t.test('usage errors exit 2', async (t) => {
  const { dir, env } = await setup(t, 1)
  t.match(await cli(['run', 'spam.judge.yaml', '--concurrency', '0'], env, dir), {
    code: 2,
    stderr: /--concurrency must be a whole number/,
  })
  t.match(await cli(['run', 'spam.judge.yaml', '--bogus'], env, dir), { code: 2, stderr: /Unknown option '--bogus'/ })
  t.match(await cli(['run'], env, dir), { code: 2, stderr: /expected one spec file or folder/ })
  t.match(await cli(['run', 'spam.judge.yaml', '--node', 'nope'], env, dir), { code: 2, stderr: /unknown node "nope"/ })
  t.match(await cli(['run', 'spam.judge.yaml'], { ...env, JUDGE_MAX_COST: 'lots' }, dir), {
    code: 2,
    stderr: /JUDGE_MAX_COST must be a cost in USD/,
  })
})

t.test(
  'a simulated run is refused by no JUDGE_MAX_COST and says what System One would have charged, as that',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(30, 0) })
    const env = { ENGINE: 'simulated', JUDGE_MAX_COST: '0.000001' }
    const plan = await cli(['plan', 'spam.judge.yaml', '--json'], env, dir)
    t.match(JSON.parse(plan.stdout), [{ ask: 90, cap: null, within_cap: true }], 'no cap applies to the plan')
    const run = await cli(['run', 'spam.judge.yaml'], env, dir)
    t.equal(run.code, 0, run.stderr)
    const cost =
      /asked in 30 requests, would cost \$([\d.]+) on System One \(simulated: nothing spent\); complete/.exec(
        run.stdout,
      )
    t.ok(
      cost && Number(cost[1]) > 0.000001,
      `the cost above the cap, shown as what it would be: ${run.stdout.split('\n')[0]}`,
    )
    t.match(
      (await cli(['runs', 'spam.judge.yaml'], env, dir)).stdout,
      /\s90\s+would cost \$[\d.]+ on System One \(simulated: nothing spent\)\s+simulated-1\s/,
    )
    const real = await cli(
      ['run', 'spam.judge.yaml', '--data', 'messages.csv'],
      { JUDGE_MAX_COST: '0.000001', ENGINE_API_KEY: 'k', ENGINE_URL: 'http://127.0.0.1:9' },
      dir,
    )
    t.equal(real.code, 2, 'the cap still refuses an engine that charges')
    t.match(real.stderr, /JUDGE_MAX_COST/)
  },
)

t.test(
  '--delimiter reads a data file with another separator; TSV by its extension; JSON Lines refuse it',
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': SPAM_YAML,
      'semi.txt': 'id;message\n1;"Hi; there"\n2;WIN a prize\n',
      'sms.tsv': 'label\tmessage\nham\t"Hi" there\nspam\tWIN a prize\n',
      'rows.jsonl': '{"message":"hi"}\n',
    })
    const env = { ENGINE: 'simulated' }
    const semi = await cli(['run', 'spam.judge.yaml', '--data', 'semi.txt', '--delimiter', ';', '--json'], env, dir)
    t.equal(semi.code, 0, semi.stderr)
    t.match(JSON.parse(semi.stdout), [{ rows: 2, asked: 6 }])
    const tsv = await cli(['run', 'spam.judge.yaml', '--data', 'sms.tsv', '--out', 'answers.tsv', '--json'], env, dir)
    t.match(
      JSON.parse(tsv.stdout),
      [{ rows: 2, asked: 3, cached: 3 }],
      'quotes in a TSV are text: "Hi" there is a new state, WIN a prize is cached',
    )
    t.match(readFileSync(join(dir, 'answers.tsv'), 'utf8'), /^label\tmessage\tis_spam\t.*\nham\t"Hi" there\t/)
    t.match(await cli(['plan', 'spam.judge.yaml', '--data', 'rows.jsonl', '--delimiter', ';'], env, dir), {
      code: 2,
      stderr:
        'judge plan: --delimiter applies to CSV and other delimited files, not to the JSON Lines file rows.jsonl\n',
    })
    t.match(await cli(['plan', 'spam.judge.yaml', '--data', 'semi.txt', '--delimiter', ';;'], env, dir), {
      code: 2,
      stderr: /--delimiter must be one character/,
    })
  },
)

t.test(
  "a new model on the same data: the summary names it and splits each change into the model's part and the data's",
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(40) })
    // jev-2 says yes where jev-1 says no on every message with an even length.
    const engine = createFakeEngine({
      answer: (q, s, model) =>
        q.type === 'yes_no'
          ? model === 'jev-2' && s.message.length % 2 === 0
            ? { yes: 0.9, no: 0.1 }
            : { yes: 0.1, no: 0.9 }
          : Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 1 : 0])),
    })
    const first = await cli(['run', 'spam.judge.yaml', '--json'], { ENGINE_MODEL: 'jev-1' }, dir, { engine })
    const [run1] = JSON.parse(first.stdout)
    const second = await cli(['run', 'spam.judge.yaml'], { ENGINE_MODEL: 'jev-2' }, dir, { engine })
    t.equal(second.code, 0, second.stderr)
    const even = smsMessages()
      .slice(0, 40)
      .filter((r) => r.message.length % 2 === 0).length
    const share = (even / 40).toFixed(3)
    t.match(
      second.stdout,
      `same data: compared with run ${run1.run_id}, the previous complete \`run\` of messages.csv; a change here is the model (or a rewritten file) moving\n  the engine reported model jev-2, where run ${run1.run_id} had jev-1: each change below is split into the model's part and the data's\n`,
    )
    t.match(
      second.stdout,
      new RegExp(
        `is_spam: .*; same data: change ${share}.*; model part ${share} on 40 rows \\(${((even / 40) * 100).toFixed(1)}% flipped, p < 0\\.001\\), data part 0\\.000\\n`,
      ),
    )
    t.match(second.stdout, /topic: .*; same data: change 0\.000\n/, 'a question the new model answers alike: no parts')
    const drift = await cli(['drift', 'spam.judge.yaml'], {}, dir)
    t.match(
      drift.stdout,
      new RegExp(
        `\\n    \\S+\\s+complete\\s+40\\s+jev-2\\s+${run1.run_id}\\s+${share}\\s+(ALERT\\s+)?${share}\\s+0\\.000\\s+`,
      ),
    )
  },
)

t.test('the run tells what the engine refused, and the limit it found below ENGINE_RPM', async (t) => {
  const status = {
    rateLimitedUntil: null,
    failing: 0,
    concurrency: Infinity,
    refused: 0,
    overloaded: 0,
    rpm: 1200,
    refusedRpm: null,
  }
  t.equal(limitNote(undefined), '')
  t.equal(limitNote(status), '', 'nothing refused, nothing said')
  t.equal(
    limitNote({ ...status, overloaded: 3 }),
    'judge run: 0 requests refused for the rate (429), 3 overloaded (529)\n',
  )
  t.equal(
    limitNote({ ...status, refused: 1, rpm: 941.4, refusedRpm: 1200 }),
    "judge run: 1 request refused for the rate (429), 0 overloaded (529); the engine's limit was found below ENGINE_RPM: it refused 1,200 requests a minute, and the pace kept to 941 a minute at the end\n",
  )
})
