import t from 'tap'
import { scoredRows, scoreJudgment, scoreQuestion } from '../../../src/core/review/accuracy.ts'
import { verdictKey, type KeyRow, type Verdict, type VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { spec } from '../../helpers/specs.ts'

const judgment = spec()
const isSpam = judgment.questions.find((q) => q.name === 'is_spam')!

// Rows are named by their state hash directly: scoring never hashes anything.
function keyOf(labels: Record<string, string>): Map<string, KeyRow> {
  return new Map(
    Object.entries(labels).map(([hash, label]) => [
      hash,
      { stateHash: hash, state: { message: hash }, labels: { is_spam: label }, where: 'key.csv' },
    ]),
  )
}

function verdicts(list: [string, Verdict, string[]][], question = 'is_spam'): Map<string, VerdictRecord> {
  return new Map(
    list.map(([hash, verdict, labels]) => [
      verdictKey('spam', question, hash),
      {
        reviewed_at: '2026-01-01T00:00:00.000',
        reviewer: 'ann',
        judgment: 'spam',
        question,
        state_hash: hash,
        kind: 'disagreement',
        verdict,
        labels,
        model_label: '',
        key_label: null,
        state: { message: hash },
        stratum: null,
        rank: null,
      },
    ]),
  )
}

const score = (key: Map<string, KeyRow>, v: Map<string, VerdictRecord>, current: Record<string, string>) =>
  scoreQuestion({ judgment: 'spam', question: isSpam, key, verdicts: v, current: new Map(Object.entries(current)) })

t.test('without verdicts, rows are scored against the key and disagreements are pending', async (t) => {
  const s = score(keyOf({ a: 'yes', b: 'no', c: 'yes', d: 'no' }), new Map(), { a: 'yes', b: 'no', c: 'no' })
  t.match(s, { counted: 3, correct: 2, accuracy: 2 / 3, reviewed: 0, needs_context: 0, ambiguous: 0, pending: 1 })
  t.same(
    s.confusion,
    {
      labels: ['yes', 'no'],
      counts: [
        [1, 1],
        [0, 1],
      ],
    },
    'a key row without a current answer is not counted',
  )
})

t.test('every verdict decides the true label as docs/review.md says', async (t) => {
  const key = keyOf({ mr: 'no', bo: 'yes', kr: 'yes', co: 'no', la: 'no', nc: 'no', am: 'yes' })
  const v = verdicts([
    ['mr', 'model_right', ['yes']],
    ['bo', 'both_ok', ['no', 'yes']],
    ['kr', 'key_right', ['yes']],
    ['co', 'confirmed', ['no']],
    ['la', 'labeled', ['yes']],
    ['nc', 'needs_context', []],
    ['am', 'ambiguous', []],
  ])
  const s = score(key, v, { mr: 'yes', bo: 'no', kr: 'no', co: 'no', la: 'no', nc: 'yes', am: 'no' })
  t.match(s, { counted: 5, correct: 3, reviewed: 7, needs_context: 1, ambiguous: 1, pending: 0 })
  t.same(
    s.confusion.counts,
    [
      [1, 2],
      [0, 2],
    ],
    'model_right (yes, yes); both_ok and confirmed (no, no); key_right and labeled (yes, no)',
  )
})

t.test('both_ok keeps the row correct, and a verdict overrides the key', async (t) => {
  const s = score(keyOf({ r: 'yes' }), verdicts([['r', 'both_ok', ['no', 'yes']]]), { r: 'no' })
  t.match(s, { counted: 1, correct: 1, accuracy: 1, pending: 0 })
  const overridden = score(keyOf({ r: 'yes' }), verdicts([['r', 'labeled', ['no']]]), { r: 'yes' })
  t.match(overridden, { counted: 1, correct: 0, accuracy: 0 })
})

t.test('reviewed rows outside the key count; needs_context and ambiguous leave the estimate', async (t) => {
  const v = verdicts([
    ['s1', 'confirmed', ['no']],
    ['s2', 'labeled', ['yes']],
    ['s3', 'needs_context', []],
    ['s4', 'ambiguous', []],
  ])
  const s = score(new Map(), v, { s1: 'no', s2: 'no', s3: 'no', s4: 'no' })
  t.match(s, { counted: 2, correct: 1, reviewed: 4, needs_context: 1, ambiguous: 1, pending: 0 })
  t.same(scoredRows('spam', 'is_spam', new Map(), v), ['s1', 's2', 's3', 's4'])
  t.same(scoredRows('other', 'is_spam', new Map(), v), [], "verdicts of another judgment are not this one's")
})

t.test('the worked example of docs/review.md gives 9 of 12 and the interval computed there', async (t) => {
  const key = keyOf({
    a1: 'yes',
    a2: 'yes',
    a3: 'yes',
    a4: 'no',
    a5: 'no',
    a6: 'no',
    a7: 'no',
    d1: 'no',
    d2: 'yes',
    d3: 'yes',
    d4: 'no',
    d5: 'yes',
  })
  const v = verdicts([
    ['a7', 'ambiguous', []],
    ['d1', 'model_right', ['yes']],
    ['d2', 'both_ok', ['no', 'yes']],
    ['d3', 'key_right', ['yes']],
    ['d4', 'needs_context', []],
    ['s1', 'confirmed', ['no']],
    ['s2', 'labeled', ['yes']],
  ])
  const current = {
    a1: 'yes',
    a2: 'yes',
    a3: 'yes',
    a4: 'no',
    a5: 'no',
    a6: 'no',
    a7: 'no',
    d1: 'yes',
    d2: 'no',
    d3: 'no',
    d4: 'yes',
    d5: 'no',
    s1: 'no',
    s2: 'no',
  }
  const s = score(key, v, current)
  t.match(s, { counted: 12, correct: 9, accuracy: 0.75, reviewed: 7, needs_context: 1, ambiguous: 1, pending: 1 })
  t.same(
    s.interval!.map((x) => Math.round(x * 1e4) / 1e4),
    [0.4677, 0.9111],
  )
  t.same(s.confusion, {
    labels: ['yes', 'no'],
    counts: [
      [4, 3],
      [0, 5],
    ],
  })
})

t.test('a label the question no longer has gets its own row in the confusion table', async (t) => {
  const s = score(new Map(), verdicts([['r', 'labeled', ['maybe']]]), { r: 'no' })
  t.same(s.confusion, {
    labels: ['yes', 'no', 'maybe'],
    counts: [
      [0, 0, 0],
      [0, 0, 0],
      [0, 1, 0],
    ],
  })
  const both = score(new Map(), verdicts([['r', 'both_ok', ['yes', 'maybe']]]), { r: 'no' })
  t.same(
    both.confusion,
    {
      labels: ['yes', 'no'],
      counts: [
        [0, 1],
        [0, 0],
      ],
    },
    'a wrong row counts under the first label saved',
  )
})

t.test('a judgment is scored question by question; a question nothing speaks for has no accuracy', async (t) => {
  const scores = scoreJudgment(
    judgment,
    keyOf({ r: 'yes' }),
    new Map(),
    new Map([['is_spam', new Map([['r', 'yes']])]]),
  )
  t.same(Object.keys(scores), ['is_spam', 'topic', 'urgency'])
  t.match(scores.is_spam, { counted: 1, correct: 1, accuracy: 1, interval: [Number, 1] })
  t.match(scores.topic, { counted: 0, correct: 0, accuracy: null, interval: null })
})
