import type { Test } from 'tap'
import type { PaceStore } from '../../../src/ports/pace-store.ts'
import { freshOf, type Closable } from './fresh.ts'

/**
 * The PaceStore contract for engine pacing and spend, shared by every process on one store.
 * Run on stores made by `open`, one fresh store per test, closed after it.
 */
export function paceStoreContract(t: Test, title: string, open: () => Closable<PaceStore>): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('paced slots follow one another by the spacing, from now or from the last slot', async (t) => {
        const store = fresh(t)
        t.same(store.reservePace('e', 1000, 50, Infinity), { at: 1000, reserved: true })
        t.same(store.reservePace('e', 1000, 50, Infinity), { at: 1050, reserved: true })
        t.same(store.reservePace('e', 1010, 100, Infinity), { at: 1100, reserved: true })
        t.same(
          store.reservePace('e', 5000, 50, Infinity),
          { at: 5000, reserved: true },
          'a pace long idle starts from now',
        )
        t.same(store.reservePace('other', 1000, 50, Infinity), { at: 1000, reserved: true }, 'keys are paced apart')
      })
      t.test('a slot later than the caller would wait is not reserved', async (t) => {
        const store = fresh(t)
        store.reservePace('e', 1000, 500, Infinity)
        t.same(store.reservePace('e', 1000, 500, 1200), { at: 1500, reserved: false })
        t.same(store.reservePace('e', 1000, 500, 1500), { at: 1500, reserved: true }, 'the refused slot is still free')
      })
      t.test('a hold delays every slot until it ends, and a shorter hold does not cut a longer one', async (t) => {
        const store = fresh(t)
        store.holdPace('e', 9000)
        store.holdPace('e', 4000)
        t.same(store.reservePace('e', 1000, 0, Infinity), { at: 9000, reserved: true }, 'without spacing too')
        t.same(store.reservePace('e', 1000, 0, 5000), { at: 9000, reserved: false })
        t.same(store.reservePace('e', 1000, 50, Infinity), { at: 9000, reserved: true })
        t.same(store.reservePace('e', 1000, 50, Infinity), { at: 9050, reserved: true })
        t.same(store.reservePace('f', 1000, 0, Infinity), { at: 1000, reserved: true })
      })
      t.test(
        'a cut of the rate is kept per key, and a refusal sent before the last cut does not cut again',
        async (t) => {
          const store = fresh(t)
          t.equal(store.paceCut('e'), null)
          t.same(store.cutPace('e', { at: 2000, ceiling: 1200 }, 1900), { at: 2000, ceiling: 1200 })
          t.same(
            store.cutPace('e', { at: 2100, ceiling: 900 }, 1950),
            { at: 2000, ceiling: 1200 },
            'sent before the cut: the same round',
          )
          t.same(store.paceCut('e'), { at: 2000, ceiling: 1200 })
          t.same(
            store.cutPace('e', { at: 2500, ceiling: 900 }, 2200),
            { at: 2500, ceiling: 900 },
            'sent after it: a new round',
          )
          t.same(store.paceCut('e'), { at: 2500, ceiling: 900 })
          t.equal(store.paceCut('other'), null, 'keys are cut apart')
        },
      )
      t.test('spend adds up per day and source, newest day first', async (t) => {
        const store = fresh(t)
        t.same(store.spendByDay('server', 7), [])
        store.addSpend('2026-11-21', 'server', 0.25, 2)
        store.addSpend('2026-11-22', 'server', 0.5, 1)
        store.addSpend('2026-11-22', 'server', 0.125, 3)
        store.addSpend('2026-11-22', 'cli', 9, 9)
        t.same(store.spendByDay('server', 7), [
          { day: '2026-11-22', cost: 0.625, requests: 4 },
          { day: '2026-11-21', cost: 0.25, requests: 2 },
        ])
        t.same(store.spendByDay('server', 1), [{ day: '2026-11-22', cost: 0.625, requests: 4 }])
        t.same(store.spendByDay('cli', 7), [{ day: '2026-11-22', cost: 9, requests: 9 }])
      })
    })
    .then(() => undefined)
}
