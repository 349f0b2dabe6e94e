import t from 'tap'
import { serverSpend, SPEND_DAYS } from '../../src/app/spend.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec } from '../helpers/specs.ts'

t.test("today's spend, the last days with spend and the cap; zero for a day with none", async (t) => {
  const store = createMemoryStore()
  const a = app(deps(null, store))
  const today = a.now().toISOString().slice(0, 10)
  t.same(serverSpend(a, project(spec()), null), {
    daily_cap: null,
    today: { day: today, cost: 0, requests: 0 },
    days: [],
    simulated: { today: { day: today, cost: 0, requests: 0 }, days: [] },
  })
  for (let d = 1; d <= 9; d++) store.addSpend(`2026-11-${String(d).padStart(2, '0')}`, 'server', d / 100, d)
  store.addSpend(today, 'server', 0.5, 3)
  store.addSpend(today, 'cli', 9, 9)
  const spend = serverSpend(a, project(spec()), 2)
  t.same(spend.today, { day: today, cost: 0.5, requests: 3 })
  t.equal(spend.daily_cap, 2)
  t.equal(spend.days.length, SPEND_DAYS)
  t.same(spend.days[0], spend.today, 'newest first')
  t.same(spend.simulated, { today: { day: today, cost: 0, requests: 0 }, days: [] }, 'no simulated answers yet')
})

t.test("the simulated engine's answers are counted apart from the spend, as what they would have cost", async (t) => {
  const store = createMemoryStore()
  const a = app(deps(null, store))
  const today = a.now().toISOString().slice(0, 10)
  store.addSpend(today, 'server', 0.5, 3)
  store.addSpend(today, 'server-simulated', 0.25, 7)
  const spend = serverSpend(a, project(spec()), null)
  t.same(spend.today, { day: today, cost: 0.5, requests: 3 })
  t.same(spend.simulated, {
    today: { day: today, cost: 0.25, requests: 7 },
    days: [{ day: today, cost: 0.25, requests: 7 }],
  })
})
