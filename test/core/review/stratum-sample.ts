import t from 'tap'
import { MIN_COUNTED, sampleStratum, type KnownRow, type Truth } from '../../../src/core/review/stratum-sample.ts'
import type { StoredAnswer } from '../../../src/ports/answer-store.ts'
import { spec } from '../../helpers/specs.ts'

const isSpam = spec().questions[0]

function answer(hash: string, yes = 0.9): StoredAnswer {
  const no = Math.round((1 - yes) * 100) / 100
  return {
    model: 'm',
    fingerprint: 'f',
    stateHash: hash,
    judgment: 'spam',
    question: 'is_spam',
    distribution: { yes, no },
    label: yes >= no ? 'yes' : 'no',
    p: Math.max(yes, no),
    margin: Math.abs(yes - no),
    askedAt: '',
  }
}

const ranked = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((h) => answer(h))
const right: Truth = { labels: ['yes'] }
const wrong: Truth = { labels: ['no'] }

function known(entries: [string, Truth, boolean?][]): Map<string, KnownRow> {
  return new Map(
    entries.map(([hash, truth, randomKey]) => [hash, { answer: answer(hash), truth, randomKey: randomKey ?? false }]),
  )
}

const sample = (k: Map<string, KnownRow>, size = 100, rows = ranked) =>
  sampleStratum({ stratum: 'confident', question: isSpam, size, ranked: rows, known: k })

t.test('the sample is the longest prefix of the rank order in which every row is known', async (t) => {
  const s = sample(
    known([
      ['r1', right],
      ['r2', wrong],
      ['r4', right],
      ['r5', right],
    ]),
  )
  t.same(
    s.rows.map((r) => [r.stateHash, r.correct]),
    [
      ['r1', true],
      ['r2', false],
    ],
  )
  t.match(s, { sampled: 2, outside: 2, next: 'r3', needed: 0 }, 'rows reviewed past the gap wait outside it')
  const filled = sample(
    known([
      ['r1', right],
      ['r2', wrong],
      ['r3', right],
      ['r4', right],
      ['r5', right],
    ]),
  )
  t.same(
    filled.rows.map((r) => r.stateHash),
    ['r1', 'r2', 'r3', 'r4', 'r5'],
    'reviewing the gap brings them in',
  )
  t.match(filled, { outside: 0, next: 'r6' })
})

t.test('needs_context and ambiguous rows are in the sample but counted apart, not as rows with a label', async (t) => {
  const s = sample(
    known([
      ['r1', { excluded: 'ambiguous' }],
      ['r2', { excluded: 'needs_context' }],
      ['r3', right],
    ]),
  )
  t.match(s, { sampled: 3, needs_context: 1, ambiguous: 1, needed: 0 })
  t.same(
    s.rows.map((r) => r.stateHash),
    ['r3'],
  )
})

t.test("a random key's rows join the sample wherever they fall in the rank order", async (t) => {
  const s = sample(
    known([
      ['r1', right],
      ['r5', wrong, true],
      ['r9', right, true],
      ['r6', right],
    ]),
  )
  t.same(
    s.rows.map((r) => r.stateHash),
    ['r1', 'r5', 'r9'],
  )
  t.match(s, { sampled: 3, outside: 1, next: 'r2' })
})

t.test('a stratum with no labelled row says how many reviews would make it estimable', async (t) => {
  t.equal(MIN_COUNTED, 1)
  t.match(sample(known([])), { sampled: 0, next: 'r1', needed: 1 })
  t.match(
    sample(
      known([
        ['r1', { excluded: 'ambiguous' }],
        ['r3', right],
      ]),
    ),
    { needed: 1, next: 'r2' },
    'one review of r2 reaches r3',
  )
  t.match(
    sample(
      known([
        ['r1', { excluded: 'ambiguous' }],
        ['r2', { excluded: 'ambiguous' }],
      ]),
      100,
      ranked.slice(0, 2),
    ),
    { needed: 1, next: null },
    'past the rows read, one more',
  )
  t.match(
    sample(known([['r1', { excluded: 'ambiguous' }]]), 1, ranked.slice(0, 1)),
    { needed: 0, next: null },
    'a stratum reviewed whole needs nothing more',
  )
  t.match(sample(known([]), 0, []), { sampled: 0, needed: 0, next: null }, 'an empty stratum needs nothing')
})

t.test('a both_ok row is right when the model label is among its true labels', async (t) => {
  const s = sample(known([['r1', { labels: ['no', 'yes'] }]]))
  t.match(s.rows[0], { label: 'yes', p: 0.9, margin: 0.8, truth: ['no', 'yes'], correct: true, stratum: 'confident' })
})
