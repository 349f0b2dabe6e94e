import t from 'tap'
import { createCompareMemo, NO_MEMO, truthDigest, type Gathered } from '../../src/app/compare-memo.ts'
import { compareQuestion, type QuestionComparison } from '../../src/core/compare/compare.ts'
import type { Store } from '../../src/ports/store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'

const gathering = () => {
  let made = 0
  return {
    made: () => made,
    gather: (): Gathered => (
      made++, { kept: made, compared: 0, rows: new Map(), cost_per_1000: { live: null, candidate: null } }
    ),
  }
}
const comparison = (rows: number): QuestionComparison =>
  compareQuestion({
    judgment: 'spam',
    question: 'is_spam',
    rows: Array.from({ length: rows }, (_, i) => ({ stateHash: `h${i}`, live: 'yes', candidate: 'yes' })),
    truth: new Map(),
    margin: 0.01,
    changes: ['question'],
  })

t.test(
  'rows gathered are kept while the write mark of every store read stands, and gathered again once one moves',
  async (t) => {
    const memo = createCompareMemo()
    const [live, candidate] = [createMemoryStore(), createMemoryStore()]
    const g = gathering()
    const first = memo.gathered('k', [live, candidate], g.gather)
    t.equal(memo.gathered('k', [live, candidate], g.gather), first, 'nothing written: the same rows')
    live.keptRows('spam')
    t.equal(memo.gathered('k', [live, candidate], g.gather), first, 'a read leaves them')
    candidate.keepRow('spam', 'h1', { message: 'hi' }, '2026-01-01T00:00:00')
    const second = memo.gathered('k', [live, candidate], g.gather)
    t.not(second, first, "a write to the candidate's store: gathered again")
    t.equal(memo.gathered('k', [live], g.gather).kept, 3, 'other stores read: gathered again')
    t.equal(memo.gathered('other', [live], g.gather).kept, 4, 'another key: gathered apart')
    t.equal(g.made(), 4)
  },
)

t.test('a write landing while rows are gathered leaves them to be gathered again', async (t) => {
  const memo = createCompareMemo()
  const store = createMemoryStore()
  const g = gathering()
  memo.gathered('k', [store], () => (store.keepRow('spam', 'h1', { message: 'hi' }, '2026-01-01T00:00:00'), g.gather()))
  memo.gathered('k', [store], g.gather)
  t.equal(g.made(), 2, 'kept under the mark read before the write')
})

t.test('past its bound the memo lets the gathering used longest ago go first', async (t) => {
  const memo = createCompareMemo({ entries: 2 })
  const store: Store = createMemoryStore()
  const g = gathering()
  const a = memo.gathered('a', [store], g.gather)
  memo.gathered('b', [store], g.gather)
  t.equal(memo.gathered('a', [store], g.gather), a, 'a, used again, is the newest')
  memo.gathered('c', [store], g.gather)
  t.equal(memo.gathered('a', [store], g.gather), a, 'b went, not a')
  t.equal(g.made(), 3)
  memo.gathered('b', [store], g.gather)
  t.equal(g.made(), 4, 'b is gathered again')
})

t.test(
  "a question's comparison is kept per key of the rows gathered, and made again for another key or other rows",
  async (t) => {
    const memo = createCompareMemo({ questions: 2 })
    const store = createMemoryStore()
    const gathered = memo.gathered('k', [store], gathering().gather)
    let made = 0
    const compare = () => (made++, comparison(made))
    const first = memo.question(gathered, 'q1', compare)
    t.equal(memo.question(gathered, 'q1', compare), first, 'the same key: kept')
    t.not(memo.question(gathered, 'q2', compare), first, 'another key: made')
    memo.question(gathered, 'q3', compare)
    t.equal(made, 3)
    memo.question(gathered, 'q1', compare)
    t.equal(made, 4, 'past the bound, the questions kept are let go')
    const loose: Gathered = { kept: 0, compared: 0, rows: new Map(), cost_per_1000: { live: null, candidate: null } }
    memo.question(loose, 'q1', compare)
    memo.question(loose, 'q1', compare)
    t.equal(made, 6, 'rows the memo did not gather: nothing kept')
  },
)

t.test('without a memo everything is made afresh', async (t) => {
  const g = gathering()
  NO_MEMO.gathered('k', [createMemoryStore()], g.gather)
  NO_MEMO.gathered('k', [createMemoryStore()], g.gather)
  t.equal(g.made(), 2)
  t.not(
    NO_MEMO.question(g.gather(), 'q', () => comparison(1)),
    NO_MEMO.question(g.gather(), 'q', () => comparison(1)),
  )
})

t.test(
  'the digest of the known labels reads only the compared rows, and tells every change of their labels',
  async (t) => {
    const rows = [
      { stateHash: 'a', live: 'yes', candidate: 'no' },
      { stateHash: 'b', live: 'no', candidate: 'no' },
    ]
    const truth = new Map<string, readonly string[]>([
      ['a', ['yes']],
      ['z', ['no']],
    ])
    const digest = truthDigest(rows, truth)
    t.equal(truthDigest(rows, new Map([['a', ['yes']]])), digest, 'a label of a row not compared leaves it')
    t.not(truthDigest(rows, new Map([['a', ['no']]])), digest, 'another label')
    t.not(truthDigest(rows, new Map([['a', ['yes', 'no']]])), digest, 'a second label')
    t.not(
      truthDigest(
        rows,
        new Map([
          ['a', ['yes']],
          ['b', ['no']],
        ]),
      ),
      digest,
      'a row newly known',
    )
    t.not(truthDigest(rows, new Map()), digest, 'a row no longer known')
  },
)
