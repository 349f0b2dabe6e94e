import t from 'tap'
import type { QuestionReplay, ReplayReport } from '../../src/core/reports/replay.ts'
import { confusionTable, questionLines, replayText, stateText } from '../../src/cli/replay-text.ts'

const question = (over: Partial<QuestionReplay> = {}): QuestionReplay => ({
  rows: 4,
  agree: 2,
  agreement: 0.5,
  live_missing: 0,
  confusion: { yes: { yes: 1, no: 1 }, no: { yes: 1, no: 1 } },
  live_mix: { yes: 0.5, no: 0.5 },
  candidate_mix: { yes: 0.5, no: 0.5 },
  distance: 0,
  changed: 2,
  sample: [
    { state_hash: 'aaaaaaaaaaaaaaaa', state: { message: 'hi' }, live: 'yes', candidate: 'no' },
    { state_hash: 'bbbbbbbbbbbbbbbb', state: { message: 'yo' }, live: 'no', candidate: 'yes' },
  ],
  ...over,
})

const report = (over: Partial<ReplayReport> = {}): ReplayReport => ({
  live: { judgment: 'spam', spec_hash: 'aaaa', model: 'jev-1' },
  candidate: { judgment: 'spam-v2', spec_hash: 'bbbb', model: 'jev-2' },
  kept: 4,
  replayed: 4,
  questions: { is_spam: question() },
  live_only: [],
  candidate_only: [],
  totals: { cost: 0.000012, asked: 3, cached: 5, requests: 3 },
  run: {
    run_id: 'r1',
    judgment: 'spam-v2',
    spec_hash: 'bbbb',
    git_sha: '',
    model: 'jev-2',
    rows: 4,
    asked: 3,
    cost: 0.000012,
    status: 'complete',
    started_at: '',
    finished_at: '',
    cached: 5,
    requests: 3,
    command: 'replay',
    source: 'kept rows of spam',
    source_hash: '',
    node: 'spam-v2',
    reported_model: 'jev-2',
    states: 4,
    fingerprints: {},
  },
  ...over,
})

t.test('the report opens with both judgments, the rows and what was spent', async (t) => {
  const text = replayText(report())
  t.match(
    text,
    /^candidate spam-v2 against live spam: 4 kept rows, 4 replayed\n {2}live {7}spec aaaa, model jev-1\n {2}candidate {2}spec bbbb, model jev-2\n/,
  )
  t.match(text, /cost \$0\.000012: 5 answers cached, 3 asked in 3 requests; run r1 complete\n/)
  t.match(text, /\n\nis_spam: 4 rows compared, agreement 50\.0% \(2 of 4\), mix distance 0\.000\n/)
})

t.test('no kept rows says how to keep them, and that nothing was judged', async (t) => {
  const text = replayText(report({ kept: 0, replayed: 0, run: null }))
  t.match(
    text,
    /no rows are kept for spam, so there is nothing to replay: send live requests with "log": true \(see docs\/shadow\.md\)\.\nNothing was judged and no run was recorded\.\n$/,
  )
})

t.test('a distance above the drift alert line is flagged', async (t) => {
  t.match(
    questionLines('is_spam', question({ distance: 0.25 }))[0],
    /mix distance 0\.250 \(above the 0\.10 drift alert line\)$/,
  )
  t.notMatch(questionLines('is_spam', question({ distance: 0.1 }))[0], /alert/)
})

t.test('changed rows are listed with state hash, both labels and state; a partial sample says so', async (t) => {
  const lines = questionLines('is_spam', question())
  t.ok(lines.includes('  2 rows would change:'))
  t.ok(lines.includes('    aaaaaaaaaaaaaaaa  yes -> no  {"message":"hi"}'))
  t.ok(questionLines('is_spam', question({ changed: 14 })).includes('  14 rows would change; a sample of 2:'))
  t.ok(questionLines('is_spam', question({ changed: 0, sample: [] })).includes('  no row would change'))
})

t.test('a question with no rows compared says so, and rows without a live answer are counted', async (t) => {
  const lines = questionLines(
    'topic',
    question({ rows: 0, agree: 0, agreement: null, distance: null, live_missing: 3 }),
  )
  t.same(lines, [
    'topic: no rows compared',
    '  3 kept rows have no live answer in the store (the live question or model changed since it was kept) and are left out',
  ])
  t.match(
    questionLines('topic', question({ live_missing: 1 })).at(-1),
    /1 kept row has no live answer .* and is left out$/,
  )
})

t.test('questions only one side asks are named as not compared', async (t) => {
  const text = replayText(report({ live_only: ['urgency'], candidate_only: ['tone', 'mood'] }))
  t.match(text, /questions only the live judgment asks, not compared: urgency\n/)
  t.match(text, /questions only the candidate asks, not compared: tone, mood\n/)
})

t.test('the confusion table has a line per live label and a column per candidate label', async (t) => {
  t.equal(
    confusionTable({ yes: { yes: 3, no: 1 }, no: { yes: 2, no: 4, maybe: 1 } }),
    ['live \\ candidate  yes  no  maybe', 'yes               3    1   0', 'no                2    4   1', ''].join(
      '\n',
    ),
  )
})

t.test('a long state is cut to one line of a hundred characters', async (t) => {
  t.equal(stateText({ message: 'hi' }), '{"message":"hi"}')
  const long = stateText({ message: 'x'.repeat(300) })
  t.equal(long.length, 100)
  t.ok(long.endsWith('…'))
})
