import type { Test } from 'tap'
import type { Reask, ReaskStore } from '../../../src/ports/reask-store.ts'
import type { AnswerStore } from '../../../src/ports/answer-store.ts'
import { answer } from './answer-store.ts'
import { freshOf, type Closable } from './fresh.ts'

/** A re-ask of the spam question, with fields overridden. */
export function reask(over: Partial<Reask> = {}): Reask {
  return {
    check: '2026-01-01T00:00:00.000',
    judgment: 'spam',
    question: 'is_spam',
    model: 'jev-1',
    fingerprint: 'fp-spam',
    stateHash: 'state-0',
    stratum: 'confident',
    stratumSize: 10,
    stratumSampled: 2,
    storedLabel: 'yes',
    storedP: 0.9,
    storedMargin: 0.8,
    distribution: { yes: 0.3, no: 0.7 },
    label: 'no',
    p: 0.7,
    margin: 0.4,
    askedAt: '2026-01-01T00:00:01.000',
    reportedModel: 'jev-1.2',
    samples: null,
    ...over,
  }
}

/**
 * The ReaskStore contract: re-asks are kept apart from the answers, and each question's latest
 * check is read whole. Run on stores made by `open`, one fresh store per test, closed after it.
 */
export function reaskStoreContract(
  t: Test,
  title: string,
  open: () => Closable<ReaskStore & AnswerStore>,
): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('a question without a check has no re-asks', async (t) => {
        t.same(fresh(t).latestReasks('jev-1', 'fp-spam'), [])
      })
      t.test('the re-asks of the latest check of a question come back whole, in order of state', async (t) => {
        const store = fresh(t)
        const later = '2026-02-01T00:00:00.000'
        store.addReasks([
          reask({ stateHash: 'state-9' }),
          reask({ check: later, stateHash: 'state-2' }),
          reask({ check: later, stateHash: 'state-1', stratum: 'unsure' }),
        ])
        store.addReasks([reask({ fingerprint: 'fp-other', check: '2027-01-01T00:00:00.000' })])
        t.same(store.latestReasks('jev-1', 'fp-spam'), [
          reask({ check: later, stateHash: 'state-1', stratum: 'unsure' }),
          reask({ check: later, stateHash: 'state-2' }),
        ])
        t.same(store.latestReasks('jev-2', 'fp-spam'), [], "another model's checks are its own")
      })
      t.test('a re-ask kept twice in one check stays as first kept', async (t) => {
        const store = fresh(t)
        store.addReasks([reask()])
        store.addReasks([reask({ label: 'yes' })])
        t.same(store.latestReasks('jev-1', 'fp-spam'), [reask()])
        store.addReasks([])
        t.same(store.latestReasks('jev-1', 'fp-spam'), [reask()], 'adding none changes nothing')
      })
      t.test(
        'a re-ask read from the draws a stored answer holds keeps their count; one written without, null',
        async (t) => {
          const store = fresh(t)
          const { samples: _, ...bare } = reask({ stateHash: 'state-1' })
          store.addReasks([reask({ samples: 5 }), bare])
          t.same(
            store.latestReasks('jev-1', 'fp-spam').map((r) => r.samples),
            [5, null],
          )
        },
      )
      t.test('a re-ask is never a cached answer: the answer the store holds stands', async (t) => {
        const store = fresh(t)
        store.putAnswers([answer()], 'state-0', { message: 'hi' })
        store.addReasks([reask({ label: 'no', p: 0.99 })])
        t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.label, answer().label)
        t.equal(store.countAnswers('jev-1', 'fp-spam'), 1)
      })
    })
    .then(() => undefined)
}
