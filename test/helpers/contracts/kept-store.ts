import type { Test } from 'tap'
import type { KeptStore, ShadowPair } from '../../../src/ports/kept-store.ts'
import { freshOf, type Closable } from './fresh.ts'

/** A shadow pair of the live `spam` judgment, with any field overridden. */
export function pair(over: Partial<ShadowPair> = {}): ShadowPair {
  return {
    liveJudgment: 'spam',
    candidateJudgment: 'spam-v2',
    candidateHash: 'cand-1',
    stateHash: 'state-0',
    question: 'is_spam',
    liveLabel: 'yes',
    candidateLabel: 'no',
    at: '2025-01-01T00:00:00',
    ...over,
  }
}

/**
 * The KeptStore contract: rows kept for replay, shadow pairs and the candidates seen. Run on stores made by `open`, one fresh store per test, closed after it.
 */
export function keptStoreContract(t: Test, title: string, open: () => Closable<KeptStore>): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('a kept row is inserted once, then bumped on each sighting', async (t) => {
        const store = fresh(t)
        store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
        t.same(store.keptRows('spam'), [
          {
            judgment: 'spam',
            stateHash: 'state-0',
            state: { message: 'hi' },
            firstSeen: '2025-01-01T00:00:00',
            lastSeen: '2025-01-01T00:00:00',
            seen: 1,
          },
        ])
        store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-03T00:00:00')
        store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-02T00:00:00')
        t.same(store.keptRows('spam'), [
          {
            judgment: 'spam',
            stateHash: 'state-0',
            state: { message: 'hi' },
            firstSeen: '2025-01-01T00:00:00',
            lastSeen: '2025-01-03T00:00:00',
            seen: 3,
          },
        ])
      })
      t.test('a sighting older than the first moves first_seen back', async (t) => {
        const store = fresh(t)
        store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-02T00:00:00')
        store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
        const [row] = store.keptRows('spam')
        t.equal(row.firstSeen, '2025-01-01T00:00:00')
        t.equal(row.lastSeen, '2025-01-02T00:00:00')
      })
      t.test('kept rows come in the order first seen, ties in the order kept, per judgment', async (t) => {
        const store = fresh(t)
        store.keepRow('spam', 'state-b', { message: 'b' }, '2025-01-02T00:00:00')
        store.keepRow('spam', 'state-c', { message: 'c' }, '2025-01-01T00:00:00')
        store.keepRow('ham', 'state-z', { message: 'z' }, '2025-01-01T00:00:00')
        store.keepRow('spam', 'state-a', { message: 'a' }, '2025-01-02T00:00:00')
        store.keepRow('spam', 'state-c', { message: 'c' }, '2025-01-09T00:00:00')
        t.same(
          store.keptRows('spam').map((r) => r.stateHash),
          ['state-c', 'state-b', 'state-a'],
        )
        t.same(
          store.keptRows('ham').map((r) => r.state),
          [{ message: 'z' }],
        )
        t.same(store.keptRows('nobody'), [])
      })
      t.test('shadow pairs come back for their live judgment, in the order recorded', async (t) => {
        const store = fresh(t)
        const late = pair({ stateHash: 'state-1', at: '2025-01-02T00:00:00' })
        const early = pair({ question: 'topic', liveLabel: 'personal', candidateLabel: 'service' })
        store.recordShadow([late, early])
        store.recordShadow([pair({ liveJudgment: 'ham' })])
        store.recordShadow([])
        t.same(store.shadowPairs('spam'), [early, late])
        t.same(store.shadowPairs('ham'), [pair({ liveJudgment: 'ham' })])
        t.same(store.shadowPairs('nobody'), [])
      })
      t.test('recording a shadow pair again replaces it; an edited candidate is a new pair', async (t) => {
        const store = fresh(t)
        store.recordShadow([pair()])
        const repeat = pair({ liveLabel: 'no', candidateLabel: 'no', at: '2025-01-05T00:00:00' })
        const edited = pair({ candidateHash: 'cand-2', at: '2025-01-04T00:00:00' })
        store.recordShadow([repeat, edited])
        t.same(store.shadowPairs('spam'), [edited, repeat])
      })
      t.test(
        'shadow candidates are kept per question, the newest sighting winning, with or without pairs',
        async (t) => {
          const store = fresh(t)
          const q = (question: string, seenAt: string, fingerprint = `fp-${question}`) => ({
            judgment: 'spam-v2',
            specHash: 'c1',
            question,
            fingerprint,
            seenAt,
          })
          t.same(store.candidateQuestions(), [])
          store.recordShadow([], [q('topic', '2025-01-02T00:00:00'), q('is_spam', '2025-01-02T00:00:00')])
          store.recordShadow([], [q('is_spam', '2025-01-01T00:00:00')])
          store.recordShadow([], [q('is_spam', '2025-01-03T00:00:00', 'fp-new')])
          t.same(store.candidateQuestions(), [
            q('is_spam', '2025-01-03T00:00:00', 'fp-new'),
            q('topic', '2025-01-02T00:00:00'),
          ])
          t.same(store.shadowPairs('spam'), [])
        },
      )
    })
    .then(() => undefined)
}
