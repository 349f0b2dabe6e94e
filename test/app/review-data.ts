import t from 'tap'
import { scoredQuestions, currentLabels, queueData, type ReviewSource } from '../../src/app/review-data.ts'
import { verdictKey, type KeyRow, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Spec } from '../../src/core/types.ts'
import type { Store } from '../../src/ports/store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

const judgment: Spec = spec(SPAM_YAML + 'unsure_below: 0.2\n')
// The seed's order: exactly `audit` spot checks, whatever the strata found.
const fixed: Spec = { ...judgment, allocation: 'fixed' }
const isSpam = judgment.questions[0]
const hashOf = (message: string) => stateHash({ message })

/** Stores an is_spam answer of p(yes) for the message. */
function put(store: Store, message: string, yes: number): void {
  const no = 1 - yes
  const label = yes >= no ? 'yes' : 'no'
  const margin = Math.abs(yes - no)
  store.putAnswers(
    [
      {
        model: 'm',
        fingerprint: isSpam.fingerprint,
        stateHash: hashOf(message),
        judgment: 'spam',
        question: 'is_spam',
        distribution: { yes, no },
        label,
        p: Math.max(yes, no),
        margin,
        askedAt: '2026-01-01T00:00:00.000',
      },
    ],
    hashOf(message),
    { message },
  )
}

function keyOf(labels: Record<string, string>): Map<string, KeyRow> {
  return new Map(
    Object.entries(labels).map(([message, label]) => [
      hashOf(message),
      { stateHash: hashOf(message), state: { message }, labels: { is_spam: label }, where: 'key.csv' },
    ]),
  )
}

function reviewed(messages: string[]): Map<string, VerdictRecord> {
  return new Map(
    messages.map((message) => [
      verdictKey('spam', 'is_spam', hashOf(message)),
      {
        reviewed_at: '2026-01-01T00:00:00.000',
        reviewer: 'ann',
        judgment: 'spam',
        question: 'is_spam',
        state_hash: hashOf(message),
        kind: 'spot_check',
        verdict: 'confirmed',
        labels: ['no'],
        model_label: 'no',
        key_label: null,
        state: { message },
        stratum: 'unsure',
        rank: null,
      },
    ]),
  )
}

function setup(count: number, yes: (i: number) => number = (i) => (i % 2 === 0 ? 0.9 : 0.1)) {
  const store = createMemoryStore()
  for (let i = 0; i < count; i++) put(store, `m${i}`, yes(i))
  const source = (more: Partial<ReviewSource> = {}): ReviewSource => ({
    store,
    model: 'm',
    spec: judgment,
    key: new Map(),
    verdicts: new Map(),
    ...more,
  })
  return { store, source }
}

t.test(
  'the queue reads disagreements, the seeded sample and unsure answers from the store, with their states',
  async (t) => {
    const { store, source } = setup(50, (i) => (i < 3 ? 0.55 : 0.9))
    const queue = queueData(source({ spec: fixed, key: keyOf({ m10: 'no', m11: 'yes' }) }), { spotChecks: 5 })
    const confident = { from: 0.2, below: Infinity }
    const sample = store
      .sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 5, confident)
      .map((a) => a.stateHash)
      .filter((h) => h !== hashOf('m10'))
    const spots = queue.offered.filter((c) => c.kind === 'spot_check' && c.question === 'is_spam')
    t.match(queue.offered[0], { kind: 'disagreement', stateHash: hashOf('m10'), keyLabel: 'no', modelLabel: 'yes' })
    t.same(
      spots.map((c) => c.stateHash),
      sample,
      "the spot checks follow the store's seeded order",
    )
    const unsure = queue.offered.filter((c) => c.kind === 'unsure').map((c) => c.stateHash)
    t.same(
      unsure,
      store
        .sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 5, { from: 0, below: 0.2 })
        .map((a) => a.stateHash),
      'the unsure stratum in rank order',
    )
    t.equal(unsure.length, 3)
    t.ok(
      queue.offered.every((c) => stateHash(c.state) === c.stateHash),
      "every card carries its own row's values",
    )
  },
)

t.test('the queue is the same on every request, and a reviewed sample row is not replaced', async (t) => {
  const { source } = setup(100)
  const first = queueData(source(), { spotChecks: 10 })
  t.same(queueData(source(), { spotChecks: 10 }), first)
  const spots = first.offered.filter((c) => c.question === 'is_spam')
  const after = queueData(source({ verdicts: reviewed([spots[0].state.message]) }), { spotChecks: 10 })
  t.same(
    after.offered.filter((c) => c.question === 'is_spam').map((c) => c.stateHash),
    spots.slice(1).map((c) => c.stateHash),
  )
})

t.test('enough unsure answers are read to fill a page after the reviewed ones drop out', async (t) => {
  const { store, source } = setup(60, (i) => 0.55 + i / 1000)
  const ranked = store.sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 60).map((a) => a.stateHash)
  const messages = new Map(Array.from({ length: 60 }, (_, i) => [hashOf(`m${i}`), `m${i}`]))
  const verdicts = reviewed(ranked.slice(0, 20).map((h) => messages.get(h)!))
  const queue = queueData(source({ spec: fixed, verdicts }), { spotChecks: 0, limit: 5 })
  t.same(
    queue.cards.map((c) => c.stateHash),
    ranked.slice(20, 25),
  )
  t.same(
    queueData(source({ spec: { ...judgment, unsureBelow: 0 } }), { spotChecks: 0 }).offered,
    [],
    'unsure_below 0, no unsure rows',
  )
})

t.test(
  'the rows left are counted over the whole queue, the unsure ones in the store, and do not grow as a reviewer works',
  async (t) => {
    const { store, source } = setup(40, (i) => (i < 30 ? 0.5 + i / 1000 : 0.9))
    const read = queueData(source({ spec: fixed }), { spotChecks: 0, limit: 5 })
    t.equal(read.offered.filter((c) => c.kind === 'unsure').length < 30, true, 'fewer unsure rows read than there are')
    t.same(read.left.is_spam, { disagreement: 0, spot_check: 0, split: 0, unsure: 30 }, 'all 30 unsure answers counted')
    const ranked = store.sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 40).map((a) => a.stateHash)
    const messages = new Map(Array.from({ length: 40 }, (_, i) => [hashOf(`m${i}`), `m${i}`]))
    const confident = ranked
      .filter((h) => Number(messages.get(h)!.slice(1)) >= 30)
      .slice(0, 3)
      .map((h) => messages.get(h)!)
    const unsure = ranked
      .filter((h) => Number(messages.get(h)!.slice(1)) < 30)
      .slice(0, 2)
      .map((h) => messages.get(h)!)
    const after = queueData(source({ spec: fixed, verdicts: reviewed([...confident, ...unsure]) }), {
      spotChecks: 3,
      limit: 5,
    })
    t.same(
      after.left.is_spam,
      { disagreement: 0, spot_check: 0, split: 0, unsure: 28 },
      'reviewing spot checks takes none off the unsure rows; two unsure verdicts take two',
    )
    const keyed = queueData(
      source({
        spec: fixed,
        key: keyOf({ [messages.get(ranked.find((h) => Number(messages.get(h)!.slice(1)) < 30)!)!]: 'no' }),
      }),
      { spotChecks: 0 },
    )
    t.same(
      keyed.left.is_spam,
      { disagreement: 1, spot_check: 0, split: 0, unsure: 29 },
      'an unsure row offered as a disagreement is counted once',
    )
    t.same(
      queueData(source({ spec: { ...judgment, unsureBelow: 0 } }), { spotChecks: 0, limit: 0 }).left.is_spam,
      { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
      'unsure_below 0',
    )
  },
)

t.test('a row asked for by state is offered as unsure even when far past the rows read, without a rank', async (t) => {
  const { store, source } = setup(40, (i) => 0.5 + i / 1000)
  const last = store.sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 40).at(-1)!.stateHash
  t.notOk(queueData(source(), { spotChecks: 0, limit: 5 }).offered.some((c) => c.stateHash === last))
  const queue = queueData(source(), { spotChecks: 0, limit: 5, rows: [last, hashOf('not in the store')] })
  t.match(
    queue.offered.filter((c) => c.stateHash === last),
    [{ kind: 'unsure', question: 'is_spam', rank: null, stratum: 'unsure' }],
  )
  t.same(queue.left, queueData(source(), { spotChecks: 0, limit: 5 }).left, 'the count is the same')
})

t.test('a negative or fractional audit is read as a whole number of rows, at least 0', async (t) => {
  const { source } = setup(10)
  t.equal(queueData(source(), { spotChecks: -3 }).offered.length, 0)
  t.equal(queueData(source(), { spotChecks: 2.7 }).offered.length, 2)
})

t.test("accuracy is scored on the store's current answers of the key rows and the reviewed rows", async (t) => {
  const { source } = setup(4)
  const key = keyOf({ m0: 'yes', m1: 'yes', unanswered: 'no' })
  const verdicts = reviewed(['m3'])
  t.same(
    [...currentLabels(source({ key, verdicts })).get('is_spam')!],
    [
      [hashOf('m0'), 'yes'],
      [hashOf('m1'), 'no'],
      [hashOf('m3'), 'no'],
    ],
  )
  const scores = scoredQuestions(source({ key, verdicts }))
  t.match(scores.is_spam, { counted: 3, correct: 2, reviewed: 1, pending: 1 })
  t.match(scores.topic, { counted: 0, accuracy: null })
})
