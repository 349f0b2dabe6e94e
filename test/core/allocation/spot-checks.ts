import t from 'tap'
import type { StratumState } from '../../../src/core/allocation/neyman.ts'
import { confidentRun, spotCheckCap, spotCheckPlan } from '../../../src/core/allocation/spot-checks.ts'

const stratum = (size: number, sampled: number, correct: number, counted = sampled): StratumState => ({
  size,
  sampled,
  counted,
  correct,
})
const hashes = (n: number) => Array.from({ length: n }, (_, i) => `h${i}`)

t.test(
  "the spot checks over the queue's life are the confident stratum's Neyman share of what the seed offers, audit at the least",
  async (t) => {
    const strata = { split: stratum(0, 0, 0), unsure: stratum(150, 0, 0), confident: stratum(850, 0, 0) }
    const cap = spotCheckCap(strata, 30)
    t.ok(cap > 30 && cap < 180, `about 85% of 180 with no verdicts: ${cap}`)
    t.equal(
      spotCheckCap({ split: stratum(0, 0, 0), unsure: stratum(0, 0, 0), confident: stratum(850, 0, 0) }, 30),
      30,
      "no unsure rows: the seed's audit",
    )
    t.equal(spotCheckCap(strata, 0), 0, 'audit 0: no spot checks at all')
  },
)

t.test('the run of confident reviews is as long as the confident stratum stays behind its share', async (t) => {
  const behind = { split: stratum(0, 0, 0), unsure: stratum(150, 40, 24), confident: stratum(850, 10, 9) }
  t.ok(confidentRun(behind, 1000, 25) > 5, 'far behind: a long run')
  t.equal(confidentRun(behind, 1000, 3), 3, 'at most the limit')
  t.equal(confidentRun(behind, 12, 25), 2, 'at most up to the cap')
  const ahead = { split: stratum(0, 0, 0), unsure: stratum(150, 2, 1), confident: stratum(850, 60, 59) }
  t.equal(confidentRun(ahead, 1000, 25), 0, 'ahead: the next review is an unsure one')
})

t.test(
  'the depth counts only rows without a verdict, passes the reviewed prefix, and offers no more than audit at once',
  async (t) => {
    const strata = { split: stratum(0, 0, 0), unsure: stratum(150, 40, 24), confident: stratum(850, 3, 3) }
    const reviewed = new Set(['h0', 'h1', 'h2', 'h5'])
    const plan = spotCheckPlan({
      spotChecks: 4,
      limit: 25,
      strata,
      confident: hashes(30),
      reviewed: (h) => reviewed.has(h),
    })
    t.equal(plan.depth, 8, 'the prefix h0–h2, then h3, h4, h6, h7 (h5 reviewed already)')
    t.ok(plan.left >= 4, 'more spot checks are to come than are offered')
    const none = spotCheckPlan({
      spotChecks: 30,
      limit: 25,
      strata: { split: stratum(0, 0, 0), unsure: stratum(150, 2, 1), confident: stratum(850, 60, 59) },
      confident: hashes(70),
      reviewed: (h) => Number(h.slice(1)) < 60,
    })
    t.equal(
      none.depth,
      60,
      'no run: the reviewed prefix only, so a row of it chosen for a second review stays in reach',
    )
    const short = spotCheckPlan({
      spotChecks: 30,
      limit: 25,
      strata: { split: stratum(0, 0, 0), unsure: stratum(150, 40, 24), confident: stratum(850, 0, 0) },
      confident: hashes(3),
      reviewed: () => false,
    })
    t.equal(short.depth, 3, 'no deeper than the rows read')
  },
)

t.test(
  'split rows count among the random rows the seed offers besides the spot checks, as unsure rows do',
  async (t) => {
    const unsure = { split: stratum(0, 0, 0), unsure: stratum(150, 0, 0), confident: stratum(850, 0, 0) }
    const mixed = { split: stratum(50, 0, 0), unsure: stratum(100, 0, 0), confident: stratum(850, 0, 0) }
    t.equal(spotCheckCap(mixed, 30), spotCheckCap(unsure, 30), 'the same cap for the same rows, split or unsure')
    const behind = { split: stratum(50, 0, 0), unsure: stratum(0, 0, 0), confident: stratum(850, 40, 39) }
    t.equal(confidentRun(behind, 1000, 25), 0, 'a confident stratum ahead: the next review goes to the split stratum')
  },
)
