import type { Test } from 'tap'
import type { AnswerStore } from '../../../src/ports/answer-store.ts'
import type { JuryStore, LabelPattern } from '../../../src/ports/jury-store.ts'
import { answer } from './answer-store.ts'
import { freshOf, type Closable } from './fresh.ts'

const byText = (a: LabelPattern, b: LabelPattern) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)

/**
 * The JuryStore contract: jurors' labels on a question counted by pattern over the states any of them answered. Run on
 * stores made by `open`, one fresh store per test, closed after it.
 */
export function juryStoreContract(
  t: Test,
  title: string,
  open: () => Closable<JuryStore & AnswerStore>,
): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('no answers, no patterns', async (t) => {
        t.same(fresh(t).labelPatterns(['a', 'b'], 'fp-spam'), [])
      })
      t.test("each state's jurors' labels form a pattern, counted; a missing answer is null", async (t) => {
        const store = fresh(t)
        const put = (model: string, hash: string, label: string, fingerprint = 'fp-spam') =>
          store.putAnswers([answer({ model, stateHash: hash, label, fingerprint })], hash, { message: hash })
        put('a', 's1', 'yes')
        put('b', 's1', 'yes')
        put('a', 's2', 'yes')
        put('b', 's2', 'yes')
        put('a', 's3', 'no')
        put('b', 's3', 'yes')
        put('b', 's4', 'no')
        put('c', 's5', 'no')
        put('a', 's6', 'no', 'fp-other')
        const patterns = store.labelPatterns(['a', 'b'], 'fp-spam').sort(byText)
        const want: LabelPattern[] = [
          { labels: ['yes', 'yes'], count: 2 },
          { labels: ['no', 'yes'], count: 1 },
          { labels: [null, 'no'], count: 1 },
        ]
        t.same(patterns, want.sort(byText))
        t.same(
          store.labelPatterns(['b', 'a'], 'fp-spam').sort(byText),
          [
            { labels: ['no', null], count: 1 },
            { labels: ['yes', 'no'], count: 1 },
            { labels: ['yes', 'yes'], count: 2 },
          ].sort(byText),
          "in the models' order",
        )
        t.same(
          store.labelPatterns(['a', 'a'], 'fp-other'),
          [{ labels: ['no', 'no'], count: 1 }],
          'a model listed twice',
        )
      })
    })
    .then(() => undefined)
}
