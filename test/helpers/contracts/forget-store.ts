import type { Test } from 'tap'
import type { Store } from '../../../src/ports/store.ts'
import { answer } from './answer-store.ts'
import { freshOf } from './fresh.ts'
import { pair } from './kept-store.ts'

const STAMP = { at: '2026-02-01T00:00:00.000', command: 'judge forget --row' }

/** A store holding two rows answered, kept and shadowed, and a third only answered. */
function seeded(store: Store): Store {
  for (const [hash, message, at] of [
    ['state-a', 'alpha', '2026-01-01T00:00:00.000'],
    ['state-b', 'beta', '2026-01-02T00:00:00.000'],
    ['state-c', 'gamma', '2026-01-03T00:00:00.000'],
  ]) {
    store.putAnswers([answer({ stateHash: hash, askedAt: at })], hash, { message, sender: 'ann' })
  }
  store.keepRow('spam', 'state-a', { message: 'alpha', sender: 'ann' }, '2026-01-01T00:00:00.000')
  store.keepRow('ham', 'state-a', { message: 'alpha', sender: 'ann' }, '2026-01-01T00:00:00.000')
  store.keepRow('spam', 'state-b', { message: 'beta', sender: 'ann' }, '2026-01-02T00:00:00.000')
  store.recordShadow([
    pair({ stateHash: 'state-a' }),
    pair({ stateHash: 'state-a', question: 'topic' }),
    pair({ stateHash: 'state-b', at: '2026-01-05T00:00:00.000' }),
  ])
  return store
}

/** The ForgetStore contract, on whole stores (forgetting reaches into every port's tables). One fresh store per test. */
export function forgetStoreContract(t: Test, title: string, open: () => Store): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('a dry run says what a plan would remove, per state in hash order, and removes nothing', async (t) => {
        const store = seeded(fresh(t))
        const plan = { values: ['state-b', 'state-a', 'state-x'], records: ['state-b', 'state-a', 'state-x'] }
        t.same(store.heldFor(plan), [
          { stateHash: 'state-a', values: true, keptRows: 2 },
          { stateHash: 'state-b', values: true, keptRows: 1 },
        ])
        t.same(store.heldFor({ values: ['state-x'], records: [] }), [], 'a state held nowhere is not listed')
        t.same(store.getStates(['state-a']).get('state-a'), { message: 'alpha', sender: 'ann' })
      })
      t.test(
        'forgetting removes the values and kept rows of its states, and nothing else: answers and shadow pairs stay',
        async (t) => {
          const store = seeded(fresh(t))
          const mark = store.writeMark()
          const forgotten = store.forget({ values: ['state-a'], records: ['state-a'] }, STAMP)
          t.same(forgotten, { states: [{ stateHash: 'state-a', values: true, keptRows: 2 }], logCleared: true })
          t.same([...store.getStates(['state-a', 'state-b', 'state-c']).keys()], ['state-b', 'state-c'])
          t.same(
            store.keptRows('spam').map((r) => r.stateHash),
            ['state-b'],
          )
          t.same(store.keptRows('ham'), [])
          t.same(
            store.shadowPairs('spam').map((p) => p.stateHash),
            ['state-a', 'state-a', 'state-b'],
            'shadow pairs hold labels by hash, no values',
          )
          t.same(
            store.getAnswers('jev-1', 'state-a', ['fp-spam']).get('fp-spam'),
            answer({ stateHash: 'state-a', askedAt: '2026-01-01T00:00:00.000' }),
            'its answers stay',
          )
          t.not(store.writeMark(), mark, 'the write mark moves: a server drops what it kept')
          t.same(store.forgottenLines(), [
            { ...STAMP, stateHash: 'state-a', place: 'values', count: 1 },
            { ...STAMP, stateHash: 'state-a', place: 'kept rows', count: 2 },
          ])
        },
      )
      t.test('forgetting what is not held removes nothing and writes no forget log line', async (t) => {
        const store = seeded(fresh(t))
        store.forget({ values: ['state-a'], records: ['state-a'] }, STAMP)
        t.same(store.forget({ values: ['state-a', 'state-x'], records: ['state-a'] }, STAMP), {
          states: [],
          logCleared: true,
        })
        t.equal(store.forgottenLines().length, 2)
      })
      t.test(
        'values alone can go, leaving the rows that name them; a forgotten row stored again is kept again',
        async (t) => {
          const store = seeded(fresh(t))
          store.forget({ values: ['state-c', 'state-b'], records: [] }, STAMP)
          t.same(store.getStates(['state-b', 'state-c']), new Map())
          t.same(
            store.keptRows('spam').map((r) => r.stateHash),
            ['state-a'],
            'a kept row without values is not offered for replay',
          )
          store.keepRow('spam', 'state-b', { message: 'beta', sender: 'ann' }, '2026-03-01T00:00:00.000')
          t.same(
            store.keptRows('spam').map((r) => r.state),
            [
              { message: 'alpha', sender: 'ann' },
              { message: 'beta', sender: 'ann' },
            ],
          )
        },
      )
      t.test("a judgment's stale kept rows go by when they were last seen", async (t) => {
        const store = seeded(fresh(t))
        const plan = { values: [], records: [], stale: { judgment: 'spam', before: '2026-01-02T00:00:00.000' } }
        t.same(store.heldFor(plan), [{ stateHash: 'state-a', values: false, keptRows: 1 }])
        store.forget(plan, STAMP)
        t.same(
          store.keptRows('spam').map((r) => r.stateHash),
          ['state-b'],
          'seen at the cutoff itself: stays',
        )
        t.same(
          store.keptRows('ham').map((r) => r.stateHash),
          ['state-a'],
          "another judgment's stays",
        )
        t.same([...store.getStates(['state-a']).keys()], ['state-a'], 'values are not part of the stale records')
      })
      t.test('the states holding a value in a column are found exactly, in hash order', async (t) => {
        const store = seeded(fresh(t))
        t.same(store.statesWhere('sender', 'ann'), ['state-a', 'state-b', 'state-c'])
        t.same(store.statesWhere('message', 'beta'), ['state-b'])
        t.same(store.statesWhere('message', 'Beta'), [])
        t.same(store.statesWhere('nobody', 'beta'), [])
      })
      t.test(
        "expired states were stored before the cutoff and are the judgment's: kept by it or answered under its questions",
        async (t) => {
          const store = seeded(fresh(t))
          store.putAnswers(
            [
              answer({
                stateHash: 'state-d',
                model: 'jev-2',
                fingerprint: 'fp-other',
                askedAt: '2026-01-01T00:00:00.000',
              }),
            ],
            'state-d',
            { message: 'delta' },
          )
          t.same(store.expiredStates('spam', ['fp-spam'], '2026-01-03T00:00:00.000'), ['state-a', 'state-b'])
          t.same(
            store.expiredStates('spam', ['fp-spam'], '2026-01-02T00:00:00.000'),
            ['state-a'],
            'stored at the cutoff: not expired',
          )
          t.same(
            store.expiredStates('spam', ['fp-other'], '2026-01-03T00:00:00.000'),
            ['state-a', 'state-b', 'state-d'],
            'kept rows, and answers of any model',
          )
          t.same(store.expiredStates('ham', [], '2026-01-03T00:00:00.000'), ['state-a'])
          t.same(store.expiredStates('nobody', ['fp-none'], '2030-01-01T00:00:00.000'), [])
        },
      )
      t.test(
        "storing a state's values again, by an answer or a kept row, moves when they were last stored",
        async (t) => {
          const store = seeded(fresh(t))
          store.keepRow('spam', 'state-a', { message: 'alpha', sender: 'ann' }, '2026-02-01T00:00:00.000')
          store.putAnswers(
            [answer({ stateHash: 'state-b', fingerprint: 'fp-topic', askedAt: '2026-02-01T00:00:00.000' })],
            'state-b',
            { message: 'beta', sender: 'ann' },
          )
          store.keepRow('spam', 'state-c', { message: 'gamma', sender: 'ann' }, '2025-06-01T00:00:00.000')
          t.same(
            store.expiredStates('spam', ['fp-spam'], '2026-01-31T00:00:00.000'),
            ['state-c'],
            'an older time never moves it back',
          )
          t.same(store.getStates(['state-c']).get('state-c'), { message: 'gamma', sender: 'ann' })
        },
      )
      t.test('forget log lines added read back in the order written, after those of forgetting', async (t) => {
        const store = seeded(fresh(t))
        t.same(store.forgottenLines(), [])
        store.forget({ values: ['state-c'], records: ['state-c'] }, STAMP)
        const line = { ...STAMP, stateHash: 'state-a', place: 'reviews file spam.reviews.csv', count: 3 }
        store.recordForgotten([line, { ...line, stateHash: 'state-b', count: 1 }])
        store.recordForgotten([])
        t.same(store.forgottenLines(), [
          { ...STAMP, stateHash: 'state-c', place: 'values', count: 1 },
          line,
          { ...line, stateHash: 'state-b', count: 1 },
        ])
      })
    })
    .then(() => undefined)
}
