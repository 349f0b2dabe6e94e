import t from 'tap'
import { cli } from '../../helpers/cli.ts'
import { LIVE_ASK, message, setup, spamSpec } from '../../helpers/replay-project.ts'

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
      { rows: 10, discordant: 0, verdict: 'no difference shown', difference: 0, rows_difference: 0, reviews_needed: 0 },
      'worded alike: they never differ on these rows, so they are exactly as accurate on them',
    )
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
    t.match(rows.stdout, /gate: every question is not-worse \(margin 0\.01\) on the compared rows/)
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
