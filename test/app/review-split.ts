import t from 'tap'
import { queueData, scoredQuestions, type ReviewSource } from '../../src/app/review-data.ts'
import { sampleDesignOf } from '../../src/app/sample-design.ts'
import type { VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Spec } from '../../src/core/types.ts'
import type { AnswerStore, MarginBand } from '../../src/ports/answer-store.ts'
import type { Store } from '../../src/ports/store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { hashOf, spamVerdict } from '../helpers/spam-answers.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

// A jury's answers some juror dissented from are the split stratum: read from the store by its band, offered as
// `split` rows after the spot checks and before the unsure rows, and counted in the store as the unsure rows are.

const one: Spec = { ...spec(SPAM_YAML + 'unsure_below: 0.2\n'), allocation: 'fixed' }
const jury: Spec = {
  ...one,
  jurors: [
    { model: 'a', engine: null },
    { model: 'b', engine: null },
  ],
}
const isSpam = one.questions[0]

/** Stores an is_spam answer of p(yes) for the message, with the jurors that dissented (null: one model's). */
function put(store: Store, message: string, yes: number, dissent: number | null = null): void {
  const no = Math.round((1 - yes) * 100) / 100
  store.putAnswers(
    [
      {
        model: 'm',
        fingerprint: isSpam.fingerprint,
        stateHash: hashOf(message),
        judgment: 'spam',
        question: 'is_spam',
        distribution: { yes, no },
        label: yes >= no ? 'yes' : 'no',
        p: Math.max(yes, no),
        margin: Math.round(Math.abs(yes - no) * 100) / 100,
        askedAt: '2026-01-01T00:00:00.000',
        ...(dissent === null ? {} : { dissent }),
      },
    ],
    hashOf(message),
    { message },
  )
}

/** A verdict of this kind on a message's is_spam row: confirming the model's yes, or labelling it no. */
function verdict(message: string, kind: VerdictRecord['kind'], right: boolean): [string, VerdictRecord] {
  const [key, v] = spamVerdict(message, right ? 'confirmed' : 'labeled', right ? ['yes'] : ['no'])
  return [key, { ...v, kind }]
}

function jurySetup() {
  const store = createMemoryStore()
  for (let i = 0; i < 4; i++) put(store, `split${i}`, i % 2 === 0 ? 0.9 : 0.55, 1)
  for (let i = 0; i < 3; i++) put(store, `unsure${i}`, 0.55, 0)
  for (let i = 0; i < 5; i++) put(store, `conf${i}`, 0.95)
  return store
}

const source = (store: AnswerStore, s: Spec, verdicts = new Map<string, VerdictRecord>()): ReviewSource => ({
  store,
  model: 'm',
  spec: s,
  key: new Map(),
  verdicts,
})

t.test('a jury judgment offers its split rows after the spot checks and before the unsure rows', async (t) => {
  const queue = queueData(source(jurySetup(), jury), { spotChecks: 2 })
  const kinds = queue.offered.map((c) => c.kind)
  t.same(kinds, ['spot_check', 'spot_check', 'split', 'split', 'split', 'split', 'unsure', 'unsure', 'unsure'])
  t.ok(
    queue.offered.filter((c) => c.kind === 'split').every((c) => c.stratum === 'split' && c.rank !== null),
    'each with its stratum and rank',
  )
  t.same(queue.left.is_spam, { disagreement: 0, spot_check: 2, split: 4, unsure: 3 })
})

t.test('reviewed split rows leave the count; a row asked for by state is offered as split', async (t) => {
  const store = jurySetup()
  const verdicts = new Map([verdict('split0', 'split', true), verdict('split1', 'split', false)])
  const queue = queueData(source(store, jury, verdicts), { spotChecks: 0, limit: 1, rows: [hashOf('split3')] })
  t.equal(queue.left.is_spam.split, 2, 'four split rows less the two reviewed')
  t.ok(
    queue.offered.some((c) => c.kind === 'split' && c.stateHash === hashOf('split3')),
    'the row asked for is offered under its kind',
  )
})

t.test('the sample design and the estimate read the split stratum of a jury', async (t) => {
  const store = jurySetup()
  const verdicts = new Map([0, 1, 2, 3].map((i) => verdict(`split${i}`, 'split', i !== 0)))
  const design = sampleDesignOf(source(store, jury, verdicts), isSpam)
  t.match(design.strata.split, { size: 4, sampled: 4 })
  t.equal(design.strata.unsure.size, 3, 'a unanimous jury answer goes by its margin')
  t.equal(design.strata.confident.size, 5)
  const scored = scoredQuestions(source(store, jury, verdicts)).is_spam
  t.match(scored.estimate.strata[0], { stratum: 'split', size: 4, counted: 4, correct: 3 })
})

t.test("one model's judgment never reads the split stratum, and its queue is what it was", async (t) => {
  const store = jurySetup()
  const bands: MarginBand[] = []
  const watched: AnswerStore = {
    ...store,
    countAnswers: (model, fingerprint, band) => {
      if (band) bands.push(band)
      return store.countAnswers(model, fingerprint, band)
    },
    sampleAnswers: (model, fingerprint, judgment, question, limit, band) => {
      if (band) bands.push(band)
      return store.sampleAnswers(model, fingerprint, judgment, question, limit, band)
    },
  }
  const queue = queueData(source(watched, one), { spotChecks: 2 })
  t.notOk(
    bands.some((b) => b.split === true),
    'no read of the split band',
  )
  t.equal(queue.left.is_spam.split, 0)
  t.notOk(queue.offered.some((c) => c.kind === 'split'))
})
