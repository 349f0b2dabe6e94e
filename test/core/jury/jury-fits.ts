import t from 'tap'
import { MIN_REVIEWED } from '../../../src/core/jury/dawid-skene.ts'
import { juryFit, REFIT_GROWTH, reviewedLabelsOf, saidOf } from '../../../src/core/jury/jury-fits.ts'
import type { Store } from '../../../src/ports/store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { spec } from '../../helpers/specs.ts'

const question = spec().questions[0] // is_spam: yes, no
const JURORS = ['a', 'b', 'c']

/** Stores each juror's label for states `from` to `to` (exclusive): a and b say yes, c says no on odd states. */
function answerRows(store: Store, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const hash = `s${i}`
    const said = ['yes', 'yes', i % 2 === 1 ? 'no' : 'yes']
    const list = JURORS.map((model, j) =>
      answer({ model, stateHash: hash, fingerprint: question.fingerprint, label: said[j] }),
    )
    store.putAnswers(list, hash, { message: hash })
  }
}

const request = (store: Store, reviewed: ReadonlyMap<string, string> = new Map()) => ({
  store,
  jury: 'jury:a+b+c',
  jurors: JURORS,
  question,
  reviewed,
})

t.test('a fit is kept while the reviewed rows stand and the answers grow by at most a tenth', async (t) => {
  const store = createMemoryStore()
  answerRows(store, 0, 20)
  const first = juryFit(request(store))
  t.equal(first.kind, 'vote')
  t.equal(juryFit(request(store)), first, 'nothing changed: the same fit')
  answerRows(store, 20, 22)
  t.equal(juryFit(request(store)), first, `${REFIT_GROWTH * 100}% more answers: the same fit`)
  answerRows(store, 22, 23)
  const grown = juryFit(request(store))
  t.not(grown, first, 'more than a tenth more answers: fitted again')
  const other = { ...request(store), jury: 'jury:a+b+c+d' }
  t.not(juryFit(other), grown, 'kept per jury')
})

t.test('a change of the reviewed rows fits again; enough of them make it a jury', async (t) => {
  const store = createMemoryStore()
  answerRows(store, 0, MIN_REVIEWED + 10)
  const vote = juryFit(request(store))
  const truth = new Map(Array.from({ length: MIN_REVIEWED }, (_, i) => [`s${i}`, i % 2 === 1 ? 'no' : 'yes']))
  const jury = juryFit(request(store, truth))
  t.not(jury, vote)
  t.equal(jury.kind, 'jury')
  t.equal(jury.reviewed, MIN_REVIEWED)
  t.equal(juryFit(request(store, new Map(truth))), jury, 'the same reviewed rows: the same fit')
  const fewer = new Map([...truth].slice(1))
  t.equal(juryFit(request(store, fewer)).kind, 'vote', 'a verdict withdrawn: fitted again')
})

t.test(
  'answers deleted fit again; reviewed rows no juror answered, or with no label of the question, are left out',
  async (t) => {
    const store = createMemoryStore()
    answerRows(store, 0, 10)
    const reviewed = new Map([
      ['s0', 'yes'],
      ['s1', 'maybe'],
      ['unknown', 'no'],
    ])
    const fit = juryFit(request(store, reviewed))
    t.equal(fit.reviewed, 1)
    store.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'c', fingerprint: question.fingerprint })
    t.not(juryFit(request(store, reviewed)), fit)
  },
)

t.test("jurors' labels as indices of the question's labels; none or another is null", async (t) => {
  t.same(saidOf(question, ['no', null, 'maybe', 'yes']), [1, null, null, 0])
})

t.test("people's labels by question and state: only verdicts of the judgment saving one label", async (t) => {
  const v = (question: string, state_hash: string, labels: string[], judgment = 'spam') => ({
    judgment,
    question,
    state_hash,
    labels,
  })
  const labels = reviewedLabelsOf('spam', [
    v('is_spam', 's1', ['yes']),
    v('is_spam', 's2', []),
    v('is_spam', 's3', ['yes', 'no']),
    v('topic', 's1', ['service']),
    v('is_spam', 's4', ['no'], 'other'),
  ])
  t.same(
    [...labels].map(([q, rows]) => [q, [...rows]]),
    [
      ['is_spam', [['s1', 'yes']]],
      ['topic', [['s1', 'service']]],
    ],
  )
})

t.test('a verdict fits again on the patterns already counted: only more answers read every answer again', async (t) => {
  const memory = createMemoryStore()
  answerRows(memory, 0, MIN_REVIEWED + 10)
  let reads = 0
  const store: Store = Object.create(memory, {
    labelPatterns: {
      value: (models: string[], fingerprint: string) => {
        reads += 1
        return memory.labelPatterns(models, fingerprint)
      },
    },
  })
  const truth = new Map(Array.from({ length: MIN_REVIEWED }, (_, i) => [`s${i}`, i % 2 === 1 ? 'no' : 'yes']))
  juryFit(request(store))
  t.equal(reads, 1, 'the first fit counts the patterns')
  const jury = juryFit(request(store, truth))
  t.equal(jury.kind, 'jury', 'fitted again on the new verdicts')
  t.equal(reads, 1, 'without counting the patterns again')
  answerRows(store, MIN_REVIEWED + 10, 2 * MIN_REVIEWED + 10)
  juryFit(request(store, truth))
  t.equal(reads, 2, 'answers grown by more than a tenth: counted again')
})
