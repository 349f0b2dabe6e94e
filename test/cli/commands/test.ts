import t, { type Test } from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import type { WireRequest } from '../../../src/adapters/system-one/system-one-wire.ts'
import type { VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { appendVerdict } from '../../../src/adapters/files/reviews-file.ts'
import { cli } from '../../helpers/cli.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms } from '../../helpers/review-forms.ts'
import { judgedProject, REVIEW_ROWS } from '../../helpers/review-project.ts'
import { spamWireAnswer } from '../../helpers/spam-wire.ts'
import { simulatedAnswers } from '../../helpers/simulated-model.ts'
import { smsMessages } from '../../helpers/sms.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { startSystemOneServer, type SystemOneServerOptions } from '../../helpers/system-one-server.ts'

const KEY = 'test-key'
const messages = smsMessages()
  .slice(0, 20)
  .map((m) => m.message)

// The key: the first five messages are spam, the first ten are personal chat (topic left empty after).
const keyCsv = stringify([
  ['message', 'is_spam', 'topic'],
  ...messages.map((m, i) => [m, i < 5 ? 'yes' : 'no', i < 10 ? 'personal' : '']),
])

// The model: spam for messages 0-3 and 10, so it misses message 4 and flags message 10; always personal chat.
function answer(body: WireRequest): Record<string, unknown> {
  const i = messages.indexOf(String(body.state.message))
  const spam = (i >= 0 && i < 4) || i === 10
  return {
    ...simulatedAnswers(body),
    ...(body.questions.is_spam ? { is_spam: { type: 'noul', noul: spam ? 0.9 : 0.1 } } : {}),
    ...(body.questions.topic
      ? {
          topic: { type: 'choice', choice: 'personal', probabilities: { personal: 0.8, promotion: 0.1, service: 0.1 } },
        }
      : {}),
  }
}

async function setup(
  t: Test,
  yaml = SPAM_YAML + 'key: spam.key.csv\nmin_accuracy: 0.9\n',
  options: SystemOneServerOptions = {},
) {
  const dir = t.testdir({ 'spam.judge.yaml': yaml, 'spam.key.csv': keyCsv })
  const engine = await startSystemOneServer({ expectKey: KEY, answer, ...options })
  t.teardown(() => engine.close())
  return { dir, engine, env: { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' } }
}

function verdict(
  i: number,
  fields: Pick<VerdictRecord, 'kind' | 'verdict' | 'labels'>,
  message = messages[i],
): VerdictRecord {
  return {
    reviewed_at: '2026-03-01T10:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: stateHash({ message }),
    model_label: 'no',
    key_label: null,
    state: { message },
    stratum: null,
    rank: null,
    ...fields,
  }
}

const withoutEstimates = (scores: Record<string, Record<string, Record<string, unknown>>>) =>
  Object.fromEntries(
    Object.entries(scores).map(([j, qs]) => [
      j,
      Object.fromEntries(
        Object.entries(qs).map(
          ([q, { estimate: _, agreement: __, accuracy_target: ___, reviews_needed: ____, ...s }]) => [q, s],
        ),
      ),
    ]),
  )

t.test(
  'the key rows are judged store first, a run is recorded, and --json prints the scores and the estimate',
  async (t) => {
    const { dir, engine, env } = await setup(t)
    const first = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(first.code, 0, first.stderr)
    t.equal(engine.requests.length, 20, 'one request per key row')
    const scores = JSON.parse(first.stdout)
    t.match(
      scores.spam.is_spam.estimate,
      { estimable: false, point: null, interval: null, needed: 1, naive: { accuracy: 0.9, counted: 20 } },
      'a chosen key alone is no random sample',
    )
    t.match(scores.spam.is_spam.estimate.strata, [
      { stratum: 'split', size: 0 },
      { stratum: 'unsure', size: 0 },
      { stratum: 'confident', size: 20, sampled: 0, needed: 1 },
    ])
    t.match(
      scores.spam.is_spam.agreement,
      { rows: 0, kappa: null, reason: /./, people: { rows: 0 }, key_error: null },
      'the agreement beside the scores, empty before any verdict',
    )
    for (const field of ['ac1', 'ac1_interval', 'kappa_linear', 'kappa_quadratic']) {
      t.ok(field in scores.spam.is_spam.agreement, `--json carries agreement.${field}`)
    }
    for (const field of ['ac1', 'alpha', 'alpha_level']) {
      t.ok(field in scores.spam.is_spam.agreement.people, `--json carries agreement.people.${field}`)
    }
    t.match(
      scores.spam.is_spam,
      { accuracy_target: null, reviews_needed: null },
      'no accuracy_target in the spec: no reviews-needed figure',
    )
    t.same(withoutEstimates(scores), {
      spam: {
        is_spam: {
          counted: 20,
          correct: 18,
          accuracy: 0.9,
          interval: scores.spam.is_spam.interval,
          reviewed: 0,
          needs_context: 0,
          ambiguous: 0,
          pending: 2,
        },
        topic: {
          counted: 10,
          correct: 10,
          accuracy: 1,
          interval: scores.spam.topic.interval,
          reviewed: 0,
          needs_context: 0,
          ambiguous: 0,
          pending: 0,
        },
        urgency: {
          counted: 0,
          correct: 0,
          accuracy: null,
          interval: null,
          reviewed: 0,
          needs_context: 0,
          ambiguous: 0,
          pending: 0,
        },
      },
    })
    t.same(
      scores.spam.is_spam.interval.map((x: number) => Math.round(x * 1e4) / 1e4),
      [0.699, 0.9721],
    )
    t.equal(scores.spam.topic.interval[1], 1)

    const second = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
    t.same(JSON.parse(second.stdout), scores)
    t.equal(engine.requests.length, 20, 'the second test asks nothing')
    const runs = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout)
    t.match(runs, [
      { judgment: 'spam', rows: 20, asked: 0, status: 'complete' },
      { judgment: 'spam', rows: 20, asked: 60, status: 'complete' },
    ])
  },
)

t.test('verdicts in the reviews file are counted, and reviewed rows outside the key are judged too', async (t) => {
  const { dir, engine, env } = await setup(t)
  const reviews = join(dir, 'spam.reviews.csv')
  await appendVerdict(reviews, verdict(4, { kind: 'disagreement', verdict: 'key_right', labels: ['yes'] }))
  await appendVerdict(reviews, verdict(10, { kind: 'disagreement', verdict: 'model_right', labels: ['yes'] }))
  await appendVerdict(reviews, verdict(6, { kind: 'spot_check', verdict: 'needs_context', labels: [] }))
  await appendVerdict(reviews, verdict(0, { kind: 'unsure', verdict: 'confirmed', labels: ['no'] }, 'an extra row'))
  // Rows saved under other state columns are not this judgment's rows any more: they are not judged.
  await appendVerdict(reviews, {
    ...verdict(0, { kind: 'unsure', verdict: 'confirmed', labels: ['no'] }, 'y'),
    state: { text: 'old column' },
  })
  await appendVerdict(reviews, {
    ...verdict(0, { kind: 'unsure', verdict: 'confirmed', labels: ['no'] }, 'x'),
    state: { message: 'not x' },
  })
  const result = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(engine.requests.length, 21, 'the reviewed row outside the key was asked')
  t.match(JSON.parse(result.stdout).spam.is_spam, {
    counted: 20,
    correct: 19,
    reviewed: 6,
    needs_context: 1,
    ambiguous: 0,
    pending: 0,
  })
})

t.test('a key declared a random sample counts toward the estimate, and min_accuracy checks the estimate', async (t) => {
  const { dir, env } = await setup(t, SPAM_YAML + 'key: spam.key.csv\nkey_sample: random\nmin_accuracy: 0.95\n')
  const result = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(result.code, 1)
  const { estimate } = JSON.parse(result.stdout).spam.is_spam
  t.match(
    estimate,
    { estimable: true, point: 0.9, interval: [0.9, 0.9], needed: 0 },
    'the key is every answer in the store: a census',
  )
  t.match(estimate.strata, [
    { stratum: 'split', size: 0 },
    { stratum: 'unsure', size: 0 },
    { stratum: 'confident', size: 20, sampled: 20, counted: 20, correct: 18, weight: 1 },
  ])
  t.match(result.stderr, /spam\.is_spam: estimate 90\.0% is below min_accuracy 95\.0%/)
  const human = await cli(['test', 'spam.judge.yaml'], env, dir)
  t.match(
    human.stdout,
    /^ {2}is_spam: estimate 90\.0% over all 20 answers, 95% interval 90\.0% to 90\.0% \(sampled 20 of 20 confident\); below min_accuracy 95\.0%$/m,
  )
  t.match(
    human.stdout,
    /^ {4}pooled: accuracy 90\.0% \(18 of 20\), 95% interval 69\.9% to 97\.2%$/m,
    'the pooled figure beside it, unchecked',
  )
})

t.test('a question below min_accuracy exits 1 and says which', async (t) => {
  const { dir, env } = await setup(t, SPAM_YAML + 'key: spam.key.csv\nmin_accuracy: 0.95\n')
  const result = await cli(['test', 'spam.judge.yaml'], env, dir)
  t.equal(result.code, 1)
  t.match(result.stderr, /spam\.is_spam: accuracy 90\.0% is below min_accuracy 95\.0%/)
  t.notMatch(result.stderr, /topic/)
})

t.test(
  'the human report shows the estimate and the pooled accuracy, interval, bar, review counts and a confusion table',
  async (t) => {
    const { dir, env } = await setup(t)
    const { stdout, code } = await cli(['test', 'spam.judge.yaml'], env, dir)
    t.equal(code, 0)
    t.match(
      stdout,
      /^spam: 20 rows judged, 0 answers cached, 60 asked in 20 requests, cost \$[\d.]+; complete \(run \S+\)$/m,
    )
    t.match(
      stdout,
      /^ {2}is_spam: estimate not estimable yet: review 1 more row in rank order: confident \(next row [0-9a-f]{16}\)$/m,
    )
    t.match(
      stdout,
      /^ {4}pooled: accuracy 90\.0% \(18 of 20\), 95% interval 69\.9% to 97\.2%; meets min_accuracy 90\.0%$/m,
    )
    t.match(stdout, /^ {4}reviewed 0, context gap 0, ambiguous 0, pending 2$/m)
    t.match(
      stdout,
      /^ {4}true \\ model +yes +no\n {4}yes +4 +1\n {4}no +1 +14$/m,
      'rows are true labels, columns model labels',
    )
    t.match(stdout, /^ {4}true \\ model +personal\n {4}personal +10$/m, 'labels that never occur are left out')
    t.match(stdout, /^ {4}pooled: no rows with a known label and an answer$/m)
    t.match(stdout, /^estimate: the accuracy over every answer/m, 'it says which figure is which')
  },
)

/** The figures of each question that `judge test --json` and GET /v1/accuracy both give. */
const shared = (questions: Record<string, Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(questions).map(([q, s]) => [
      q,
      { estimate: s.estimate, agreement: s.agreement, target: [s.accuracy_target, s.reviews_needed] },
    ]),
  )

t.test(
  'a judgment without key: is tested on the verdicts recorded through the server, with the figures of GET /v1/accuracy',
  async (t) => {
    const { dir, env, engine } = await judgedProject(
      t,
      {
        'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\nunsure_below: 0.2\nallocation: fixed\n',
        'messages.csv': stringify([['message'], ...REVIEW_ROWS.map((r) => [r.message])]),
      },
      (body) => spamWireAnswer(body, REVIEW_ROWS.find((r) => r.message === body.state.message)?.yes ?? 0.1),
    )
    const asked = engine.requests.length
    const server = await startJudgeServer(t, dir)
    const both = async () => {
      const test = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
      t.equal(test.code, 0, test.stderr)
      const http = await server.get('/v1/accuracy?path=spam.judge.yaml')
      t.equal(http.status, 200)
      const scores = JSON.parse(test.stdout).spam
      t.same(shared(scores), shared(http.body.questions), 'the same figures from the CLI and the server')
      return scores
    }

    const before = await both()
    t.match(before.is_spam, { counted: 0, reviewed: 0, estimate: { estimable: false, needed: 2 } })
    t.same(
      JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout).length,
      1,
      'nothing judged, no run',
    )

    const page = await server.get('/review?path=spam.judge.yaml&reviewer=ann&audit=1')
    t.equal(page.status, 200)
    const confirm = verdictForms(page.text).filter(
      (f) => f.fields.question === 'is_spam' && f.fields.verdict === 'confirmed',
    )
    t.same(
      confirm.map((f) => f.fields.kind),
      ['spot_check', 'unsure'],
      'one row of each stratum',
    )
    for (const form of confirm) {
      const posted = await fetch(`${server.url}/review`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams(form.fields),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      t.equal(posted.status, 303)
    }
    const after = await both()
    t.match(after.is_spam, {
      counted: 2,
      correct: 2,
      reviewed: 2,
      pending: 0,
      estimate: { estimable: true, point: 1, strata: [{ counted: 0 }, { counted: 1 }, { counted: 1 }] },
    })
    t.equal(engine.requests.length, asked, 'the reviewed rows were in the store: nothing asked')
    t.match(JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout), [
      { command: 'test', rows: 2, asked: 0, status: 'complete' },
      { command: 'run' },
    ])

    const human = await cli(['test', 'spam.judge.yaml'], env, dir)
    t.match(human.stdout, /^spam: no answer key \(key:\): these figures rest on reviewers' verdicts alone; a key /m)
    t.match(
      human.stdout,
      /^ {2}is_spam: only 2 sampled rows have a known label, too few to say much: the accuracy is somewhere between 22% and 100%; estimate 100\.0% over all 43 answers, 95% interval 21\.8% to 100\.0%/m,
    )
    t.match(
      (await server.get('/accuracy?path=spam.judge.yaml')).text,
      /<p class="figure alert">Only 2 sampled rows have a known label, too few to say much: the accuracy is somewhere between 22% and 100%\.<\/p><p class="figure">Estimated accuracy <strong>100\.0%/,
    )
  },
)

t.test('a bad key, the cost cap or a missing engine key exit 2 before anything is asked or recorded', async (t) => {
  const { dir, engine, env } = await setup(t)
  const capped = await cli(['test', 'spam.judge.yaml'], { ...env, JUDGE_MAX_COST: '0.00001' }, dir)
  t.equal(capped.code, 2)
  t.match(capped.stderr, /judgment\s+rows\s+states[\s\S]*above the cap of \$0\.00001; nothing was asked/)
  const keyless = await cli(['test', 'spam.judge.yaml'], { ENGINE_URL: engine.url }, dir)
  t.match(keyless, { code: 2, stderr: /ENGINE_API_KEY is not set; nothing was asked/ })
  writeFileSync(join(dir, 'spam.key.csv'), 'message,is_spam\nhello,perhaps\n')
  const bad = await cli(['test', 'spam.judge.yaml'], env, dir)
  t.match(bad, { code: 2, stderr: /spam\.key\.csv:2: column "is_spam": "perhaps" is not a label of question is_spam/ })
  t.equal(engine.requests.length, 0)
  t.same(JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout), [])
})

t.test('a chained judgment is tested on the upstream labels its key gives, judging nothing upstream', async (t) => {
  const urgent =
    'name: urgent\nstate: [message, spam.is_spam]\nquestions:\n  urgent: {ask: Does it need an answer today?, type: yes_no}\nkey: urgent.key.csv\n'
  const { dir, engine, env } = await setup(t)
  writeFileSync(join(dir, 'urgent.judge.yaml'), urgent)
  writeFileSync(
    join(dir, 'urgent.key.csv'),
    stringify([
      ['message', 'spam.is_spam', 'urgent'],
      [messages[0], 'yes', 'no'],
      [messages[1], 'no', 'yes'],
    ]),
  )
  const result = await cli(['test', '.', '--node', 'urgent', '--json'], env, dir)
  t.equal(result.code, 0, result.stderr)
  t.same(
    engine.requests.map((r) => Object.keys(r.body.questions)),
    [['urgent'], ['urgent']],
  )
  t.same(engine.requests[0].body.state, { message: messages[0], 'spam.is_spam': 'yes' })
  t.same(Object.keys(JSON.parse(result.stdout)), ['urgent'])
})

t.test(
  'an engine that keeps failing past ENGINE_GIVE_UP_S fails the run, which is recorded, and exits 1',
  async (t) => {
    const { dir, env } = await setup(t, undefined, { failTimes: 1000, status: 500, errorMessage: 'overloaded' })
    const result = await cli(['test', 'spam.judge.yaml', '--json'], { ...env, ENGINE_GIVE_UP_S: '1' }, dir)
    t.equal(result.code, 1)
    t.match(result.stderr, /judge test: run \S+ of spam: failed: .*overloaded/)
    t.match(JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout), [{ status: /^failed/ }])
  },
)

t.test('judge test --help describes the command', async (t) => {
  const { dir, env } = await setup(t)
  t.match(await cli(['test', '--help'], env, dir), {
    code: 0,
    stdout: /^usage: judge test <spec-or-folder> \[--node NAME\] \[--concurrency N\] \[--json\]/,
  })
  t.match(await cli(['test'], env, dir), { code: 2, stderr: /expected one spec file or folder/ })
})
