import { join } from 'node:path'
import t, { type Test } from 'tap'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { readConfig } from '../../../src/config.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { createRuntime } from '../../../src/runtime.ts'
import { cli } from '../../helpers/cli.ts'
import { KEY, LIVE_ASK, message, setup, spamSpec } from '../../helpers/replay-project.ts'
import { startSystemOneServer } from '../../helpers/system-one-server.ts'

// Over messages 0-9 the live wording says yes to 0-3, the candidate's to 0-2, 4 and 5: they differ
// on 3, 4 and 5 (3 of 10). A key that knows those three rows settles the difference exactly.
const keyed = (truth: Record<number, string>) => ({
  'spam.judge.yaml': spamSpec('spam', LIVE_ASK) + 'key: spam.key.csv\n',
  'spam.key.csv':
    ['message,is_spam', ...Object.entries(truth).map(([i, label]) => `${message(Number(i))},${label}`)].join('\n') +
    '\n',
})

t.test(
  'compare reports the discordant share, the flips, the difference from the known rows, the verdict and the costs',
  async (t) => {
    // The candidate is right on 4 and 5, the live spec on 3: +1 row of 10 where they differ in all.
    const { dir, env } = await setup(t, { keep: 10, files: keyed({ 3: 'yes', 4: 'yes', 5: 'yes' }) })
    const result = await cli(['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--json'], env, dir)
    t.equal(result.code, 0, result.stderr)
    const report = JSON.parse(result.stdout)
    t.match(report, {
      live: { judgment: 'spam' },
      candidate: { judgment: 'spam-v2' },
      kept: 10,
      compared: 10,
      margin: 0.01,
      gate: null,
    })
    t.ok(report.cost_per_1000.live > 0 && report.cost_per_1000.candidate > 0, "each spec's cost per 1,000 rows")
    t.match(report.questions.is_spam, {
      rows: 10,
      discordant: 0.3,
      discordant_rows: 3,
      reviewed: 3,
      method: 'discordant rows',
      verdict: 'no difference shown',
      reviews_needed: 0,
    })
    t.same(report.questions.is_spam.flips, [
      { live: 'no', candidate: 'yes', rows: 2 },
      { live: 'yes', candidate: 'no', rows: 1 },
    ])
    t.ok(Math.abs(report.questions.is_spam.difference - 0.1) < 1e-12, 'D · (2 − 1)/3')
    t.ok(
      Math.abs(report.questions.is_spam.rows_difference - 0.1) < 1e-12,
      'every discordant row known: exact on these rows',
    )
    const [lower, upper] = report.questions.is_spam.interval
    t.ok(lower < 0 && upper > 0.1, 'the interval for traffic is wide: three discordant rows say little of it')
    t.match(
      report.questions.topic,
      { changed: false, changes: [], rows: 10, discordant: 0, verdict: 'unchanged', difference: 0, reviews_needed: 0 },
      'worded alike: unchanged, the same answers by construction',
    )
    t.same(report.questions.topic.interval, [0, 0], 'exactly as accurate on every row to come')
    t.match(report.questions.is_spam, { changed: true, changes: ['question'] })
    t.match(report.run, { judgment: 'spam-v2', status: 'complete' }, 'a replay run of the candidate is recorded')
  },
)

t.test(
  'the gate decides about traffic: ten rows pass not-worse only about the rows themselves, and it says why',
  async (t) => {
    const better = await setup(t, { keep: 10, files: keyed({ 3: 'yes', 4: 'yes', 5: 'yes' }) })
    const traffic = await cli(
      ['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--require', 'not-worse', '--node', 'spam'],
      better.env,
      better.dir,
    )
    t.equal(traffic.code, 1, traffic.stdout)
    t.match(
      traffic.stdout,
      /gate: not met \(not-worse, margin 0\.01, about traffic\):\n {2}is_spam: difference \+10\.0 points, 95% interval -\d+\.\d points to \+\d+\.\d points: its lower end is not above -1\.0 points/,
    )
    const rows = await cli(
      [
        'compare',
        'spam.judge.yaml',
        'candidates/spam-v2.judge.yaml',
        '--require',
        'not-worse',
        '--scope',
        'rows',
        '--node',
        'spam',
      ],
      better.env,
      better.dir,
    )
    t.equal(rows.code, 0, rows.stdout)
    t.match(rows.stdout, /gate: every changed question \(is_spam\) is not-worse \(margin 0\.01\) on the compared rows/)
    t.match(
      rows.stdout,
      /is_spam: 10 rows compared, 30\.0% labelled differently \(3\): no -> yes 2, yes -> no 1\n {2}accuracy difference \(candidate - live\) \+10\.0 points, 95% interval/,
    )
    t.match(rows.stdout, /on these 10 rows exactly \+10\.0 points \(every row they differ on has a known label\)/)
    const worse = await setup(t, { keep: 10, files: keyed({ 3: 'yes', 4: 'no', 5: 'no' }) })
    const fail = await cli(
      [
        'compare',
        'spam.judge.yaml',
        'candidates/spam-v2.judge.yaml',
        '--require',
        'not-worse',
        '--scope',
        'rows',
        '--json',
      ],
      worse.env,
      worse.dir,
    )
    t.equal(fail.code, 1)
    const report = JSON.parse(fail.stdout)
    t.match(report.questions.is_spam, { rows_difference: -0.3 })
    t.ok(Math.abs(report.questions.is_spam.p_value - 0.25) < 1e-12, "McNemar's exact p on 0 and 3")
    t.match(report.gate, { require: 'not-worse', scope: 'rows', margin: 0.01, met: false })
    t.match(
      report.gate.failures[0],
      /^is_spam: difference on the compared rows -30\.0 points \(every discordant row known\): not above -1\.0 points/,
    )
  },
)

t.test(
  'two reviewed rows where the specs differ, both won by the candidate, do not pass --require better',
  async (t) => {
    // Kept messages 0-4: the specs differ on 3 (live yes) and 4 (candidate yes); the key makes the candidate right on both.
    const { dir, env } = await setup(t, { keep: 5, files: keyed({ 3: 'no', 4: 'yes' }) })
    const result = await cli(
      [
        'compare',
        'spam.judge.yaml',
        'candidates/spam-v2.judge.yaml',
        '--require',
        'better',
        '--node',
        'spam',
        '--json',
      ],
      env,
      dir,
    )
    t.equal(result.code, 1, result.stdout)
    const report = JSON.parse(result.stdout)
    t.match(report.questions.is_spam, { discordant_rows: 2, reviewed: 2, p_value: 0.5, rows_difference: 0.4 })
    t.not(report.questions.is_spam.verdict, 'better')
    t.ok(report.questions.is_spam.interval[0] < 0, 'the interval for traffic holds 0')
    t.match(report.gate, { met: false, scope: 'traffic' })
  },
)

t.test('bad arguments are usage errors, exit 2, and ask nothing', async (t) => {
  const { dir, env, engine, before } = await setup(t, { keep: 2, shadowed: 0 })
  for (const [args, message] of [
    [['compare', 'spam.judge.yaml'], /takes two paths/],
    [
      ['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--require', 'best'],
      /--require takes not-worse or better, not "best"/,
    ],
    [['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--margin', '2'], /--margin takes a share/],
    [
      ['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--scope', 'all'],
      /--scope takes traffic or rows, not "all"/,
    ],
  ] as const) {
    const r = await cli([...args], env, dir)
    t.equal(r.code, 2, args.join(' '))
    t.match(r.stderr, message)
  }
  t.equal(engine.requests.length, before)
  t.match((await cli(['compare', '--help'], env, dir)).stdout, /judge compare <live> <candidate>/)
})

t.test('--data compares on the rows of a data file, judging both specs store first, and records no run', async (t) => {
  const { dir, env, engine, before } = await setup(t, {
    keep: 0,
    shadowed: 0,
    files: keyed({ 3: 'yes', 4: 'yes', 5: 'yes' }),
  })
  const result = await cli(
    ['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--data', 'live.csv', '--json'],
    env,
    dir,
  )
  t.equal(result.code, 0, result.stderr)
  const report = JSON.parse(result.stdout)
  t.match(report, { source: 'live.csv', kept: 0, compared: 10, run: null })
  t.match(report.questions.is_spam, {
    rows: 10,
    discordant: 0.3,
    method: 'discordant rows',
    verdict: 'no difference shown',
    rows_difference: 0.1,
  })
  t.equal(
    engine.requests.length,
    before + 10,
    "the live answers are cached by judge run; the candidate's ten rows are asked",
  )
  // Live: 10 rows × 2 questions from the store; the candidate's topic is worded as the live one's: 10 more.
  t.same(report.totals, { cost: report.totals.cost, asked: 10, cached: 30, requests: 10 })
  const again = await cli(
    ['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--data', 'live.csv'],
    env,
    dir,
  )
  t.equal(engine.requests.length, before + 10, 'a second comparison asks nothing')
  t.match(again.stdout, /^candidate spam-v2 against live spam on live\.csv: 10 states compared\n/)
  const runs = JSON.parse((await cli(['runs', 'candidates/spam-v2.judge.yaml', '--json'], env, dir)).stdout)
  t.same(runs, [], 'no run of the candidate')
  t.equal(
    (await cli(['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml', '--data', 'nope.csv'], env, dir)).code,
    2,
    'a missing data file',
  )
})

// Three questions over messages 0-9. The candidate words is_spam otherwise (yes on every message,
// where the live wording says yes on 0-3) and asks topic and urgent as the live spec does: those two
// are unchanged, their answers the live ones by construction.
const REWORDED = 'Is this message spam of any kind?'
const URGENT = 'Does the message need an answer today?'
const threeQuestions = (name: string, ask: string, extra = '') =>
  `${spamSpec(name, ask)}  urgent:\n    ask: ${URGENT}\n    type: yes_no\n${extra}`
const YES_ON: Readonly<Record<string, readonly number[]>> = {
  [LIVE_ASK]: [0, 1, 2, 3],
  [REWORDED]: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [URGENT]: [0, 5],
}

/** A live spec of three questions run over ten kept messages, a key for is_spam, and the candidate files given. */
async function threeQuestionProject(t: Test, candidates: Record<string, string>, keyLabel = 'yes') {
  const key = ['message,is_spam', ...[4, 5, 6, 7, 8, 9].map((i) => `${message(i)},${keyLabel}`)].join('\n')
  const dir = t.testdir({
    'tickets.judge.yaml': threeQuestions('tickets', LIVE_ASK, 'key: tickets.key.csv\n'),
    'tickets.key.csv': key + '\n',
    'live.csv': ['message', ...Array.from({ length: 10 }, (_, i) => message(i))].join('\n') + '\n',
    candidates,
  })
  const engine = await startSystemOneServer({
    expectKey: KEY,
    answer: (body) => {
      const i = Number(/(\d+)$/.exec(body.state.message)![1])
      return Object.fromEntries(
        Object.entries(body.questions).map(([name, q]) => [
          name,
          q.type === 'noul'
            ? { type: 'noul', noul: YES_ON[q.instructions]?.includes(i) ? 0.9 : 0.1 }
            : { type: 'choice', choice: 'personal', probabilities: { personal: 0.8, promotion: 0.1, service: 0.1 } },
        ]),
      )
    },
  })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' }
  const runtime = createRuntime(readConfig(env, dir))
  const store = runtime.depsFor(loadProject(join(dir, 'tickets.judge.yaml'))).store
  for (let i = 0; i < 10; i++)
    store.keepRow('tickets', stateHash({ message: message(i) }), { message: message(i) }, '2026-11-22T10:00:00.000')
  runtime.close()
  t.equal((await cli(['run', 'tickets.judge.yaml', '--data', 'live.csv'], env, dir)).code, 0)
  return { dir, env, engine, before: engine.requests.length }
}

const compareArgs = (candidate: string, ...rest: string[]) => ['compare', 'tickets.judge.yaml', candidate, ...rest]

t.test(
  'one question of three reworded: the two others are unchanged, and the gate judges the reworded one alone',
  async (t) => {
    const { dir, env } = await threeQuestionProject(t, {
      'tickets-v2.judge.yaml': threeQuestions('tickets-v2', REWORDED),
    })
    const text = await cli(compareArgs('candidates/tickets-v2.judge.yaml', '--require', 'not-worse'), env, dir)
    t.equal(text.code, 0, text.stdout)
    t.match(text.stdout, /\nchanged: is_spam \(wording or labels\)\nunchanged: topic, urgent \(same wording/)
    t.match(text.stdout, /\ntopic: unchanged, 10 rows compared: the same answers as live, a difference of exactly 0\n/)
    t.match(text.stdout, /\nis_spam: 10 rows compared, 60\.0% labelled differently \(6\): no -> yes 6\n/)
    t.match(
      text.stdout,
      /\ngate: every changed question \(is_spam\) is not-worse \(margin 0\.01\) with 95% confidence\n/,
    )
    const json = await cli(compareArgs('candidates/tickets-v2.judge.yaml', '--require', 'better', '--json'), env, dir)
    t.equal(json.code, 0, json.stdout)
    const report = JSON.parse(json.stdout)
    t.match(report.gate, { require: 'better', judged: ['is_spam'], met: true, failures: [] })
    t.match(report.questions.is_spam, { changed: true, changes: ['question'], verdict: 'better' })
    for (const name of ['topic', 'urgent']) {
      t.match(report.questions[name], { changed: false, changes: [], verdict: 'unchanged', discordant_rows: 0 }, name)
      t.same(report.questions[name].interval, [0, 0], `${name}: exactly 0, not an interval around it`)
    }
  },
)

t.test('a reworded question that is worse fails the gate alone; the unchanged ones never do', async (t) => {
  const { dir, env } = await threeQuestionProject(
    t,
    { 'tickets-v2.judge.yaml': threeQuestions('tickets-v2', REWORDED) },
    'no',
  )
  const result = await cli(
    compareArgs('candidates/tickets-v2.judge.yaml', '--require', 'not-worse', '--json'),
    env,
    dir,
  )
  t.equal(result.code, 1, result.stdout)
  const { gate } = JSON.parse(result.stdout)
  t.match(gate, { judged: ['is_spam'], met: false })
  t.equal(gate.failures.length, 1)
  t.match(gate.failures[0], /^is_spam: difference -60\.0 points/)
})

t.test('a candidate identical to the live spec: every question unchanged, nothing asked, the gate met', async (t) => {
  const { dir, env, engine, before } = await threeQuestionProject(t, {
    'tickets-copy.judge.yaml': threeQuestions('tickets-copy', LIVE_ASK),
  })
  for (const require of ['not-worse', 'better']) {
    const result = await cli(compareArgs('candidates/tickets-copy.judge.yaml', '--require', require), env, dir)
    t.equal(result.code, 0, result.stdout)
    t.match(result.stdout, /\nchanged: none\nunchanged: is_spam, topic, urgent \(/)
    t.match(result.stdout, /\ngate: met: no question changed, so every answer is the live one; nothing for --require/)
  }
  t.equal(engine.requests.length, before, 'every answer was the live one, in the store')
  const report = JSON.parse(
    (await cli(compareArgs('candidates/tickets-copy.judge.yaml', '--require', 'not-worse', '--json'), env, dir)).stdout,
  )
  t.match(report.gate, { judged: [], met: true, failures: [] })
  for (const q of Object.values<{ changed: boolean; verdict: string }>(report.questions))
    t.match(q, { changed: false, verdict: 'unchanged' })
})

t.test('a candidate asking another model, or kept in another store: every question changed and gated', async (t) => {
  const { dir, env } = await threeQuestionProject(t, {
    'tickets-jev.judge.yaml': threeQuestions('tickets-jev', LIVE_ASK, 'model: jev-1.14.0\n'),
  })
  const result = await cli(
    compareArgs('candidates/tickets-jev.judge.yaml', '--require', 'not-worse', '--json'),
    env,
    dir,
  )
  t.equal(result.code, 1, result.stdout)
  const report = JSON.parse(result.stdout)
  t.match(report.candidate, { model: 'jev-1.14.0' })
  for (const name of ['is_spam', 'topic', 'urgent'])
    t.match(report.questions[name], { changed: true, changes: ['model'], discordant_rows: 0 }, name)
  t.match(report.gate, { judged: ['is_spam', 'topic', 'urgent'], met: false })
  t.equal(report.gate.failures.length, 3, 'ten rows none differ on say too little of traffic on another model')
  const text = await cli(compareArgs('candidates/tickets-jev.judge.yaml'), env, dir)
  t.match(text.stdout, /\nchanged: is_spam \(model\), topic \(model\), urgent \(model\)\nunchanged: none\n/)
  // A copy of the live spec in a folder of its own, with a store of its own: asked afresh.
  await t.test('another store', async (t) => {
    const elsewhere = t.testdir({ 'tickets-copy.judge.yaml': threeQuestions('tickets-copy', LIVE_ASK) })
    const copy = await cli(compareArgs(join(elsewhere, 'tickets-copy.judge.yaml'), '--json'), env, dir)
    t.equal(copy.code, 0, copy.stderr)
    for (const q of Object.values<{ changes: string[] }>(JSON.parse(copy.stdout).questions))
      t.same(q.changes, ['store'])
  })
})
