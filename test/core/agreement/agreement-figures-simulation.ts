import t from 'tap'
import { raterFigures } from '../../../src/core/agreement/people-raters.ts'
import { gwetAc1 } from '../../../src/core/stats/gwet-ac1.ts'
import { gwetAc1Raters } from '../../../src/core/stats/gwet-ac1-raters.ts'
import { jackknife } from '../../../src/core/stats/jackknife.ts'
import type { LabelPair, PairStratum } from '../../../src/core/stats/kappa.ts'
import { krippendorffAlpha } from '../../../src/core/stats/krippendorff-alpha.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'
import { weightedKappa } from '../../../src/core/stats/weighted-kappa.ts'

// How often the agreement figures' 95% intervals (the jackknife, docs/review.md) cover the
// population's value. A population of 20,000 rows of a scale question (low, medium, high: mostly
// low, the κ paradox's shape) where the model and a reviewer each give the true level, or a
// neighbouring one with a known chance; a simple random sample of n rows is reviewed, and the
// sample's figure and interval are compared with the figure over the whole population. For people,
// three reviewers rate each row with missing ratings, and AC1 and ordinal α are checked the same
// way. SAMPLES draws in `npm run test:slow`, fewer in `npm test` (asking 90% there, 93% in full):
//   JUDGE_SLOW=1 node test/core/agreement/agreement-figures-simulation.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const SAMPLES = SLOW ? 1000 : 120
const MIN_COVERAGE = SLOW ? 0.93 : 0.9
const POPULATION = 20_000
const LEVELS = ['low', 'medium', 'high'] as const
const pct = (x: number) => `${(100 * x).toFixed(1)}%`

/** A level drawn from the population's mix: 80% low, 15% medium, 5% high. */
function trueLevel(random: () => number): number {
  const u = random()
  return u < 0.8 ? 0 : u < 0.95 ? 1 : 2
}

/** The true level, or with chance `slip` a neighbouring one. */
function rated(level: number, slip: number, random: () => number): string {
  if (random() >= slip) return LEVELS[level]
  const next = level === 0 ? 1 : level === 2 ? 1 : random() < 0.5 ? 0 : 2
  return LEVELS[next]
}

/** A simple random sample of n of the population's indexes. */
function sample(n: number, size: number, random: () => number): number[] {
  const picked = new Set<number>()
  while (picked.size < n) picked.add(Math.floor(random() * size))
  return [...picked]
}

t.test('model against a reviewer: weighted κ and AC1 intervals cover the population value', async (t) => {
  const random = seededRandom(20261127)
  const population: LabelPair[] = Array.from({ length: POPULATION }, () => {
    const level = trueLevel(random)
    return { a: rated(level, 0.15, random), b: rated(level, 0.08, random) }
  })
  const whole = [{ share: 1, fpc: 1, rows: population }]
  const figures = {
    kappa_linear: (s: readonly PairStratum[]) => weightedKappa(s, LEVELS, 'linear'),
    kappa_quadratic: (s: readonly PairStratum[]) => weightedKappa(s, LEVELS, 'quadratic'),
    ac1: (s: readonly PairStratum[]) => gwetAc1(s, LEVELS),
  }
  for (const n of [80, 200]) {
    for (const [name, of] of Object.entries(figures)) {
      const truth = of(whole)
      let covered = 0
      for (let i = 0; i < SAMPLES; i++) {
        const rows = sample(n, POPULATION, random).map((k) => population[k])
        const e = jackknife([{ share: 1, fpc: 1 - n / POPULATION, rows }], of)
        if (e && e.interval[0] <= truth && truth <= e.interval[1]) covered += 1
      }
      t.comment(`| ${name} | ${n} | ${truth.toFixed(3)} | ${pct(covered / SAMPLES)} |`)
      t.ok(
        covered / SAMPLES >= MIN_COVERAGE,
        `${name}, ${n} rows: covers ${truth.toFixed(3)} in ${pct(covered / SAMPLES)}`,
      )
    }
  }
})

t.test('people: multi-rater AC1 and ordinal α intervals cover the population value, ratings missing', async (t) => {
  const random = seededRandom(7)
  const slips = [0.05, 0.1, 0.2]
  const population = Array.from({ length: POPULATION }, () => {
    const level = trueLevel(random)
    // Each reviewer rates a row with chance 0.7: a row keeps the ratings it got.
    return slips.flatMap((slip) => (random() < 0.7 ? [rated(level, slip, random)] : []))
  })
  const truth = { ac1: gwetAc1Raters(population, LEVELS), alpha: krippendorffAlpha(population, LEVELS, 'ordinal') }
  const n = 120
  const covered = { ac1: 0, alpha: 0 }
  for (let i = 0; i < SAMPLES; i++) {
    const units = sample(n, POPULATION, random).map((k) => population[k])
    const f = raterFigures(units, { type: 'scale', labels: [...LEVELS] })
    if (f.ac1_interval && f.ac1_interval[0] <= truth.ac1 && truth.ac1 <= f.ac1_interval[1]) covered.ac1 += 1
    if (f.alpha_interval && f.alpha_interval[0] <= truth.alpha && truth.alpha <= f.alpha_interval[1]) covered.alpha += 1
  }
  for (const name of ['ac1', 'alpha'] as const) {
    t.comment(`| people.${name} | ${n} | ${truth[name].toFixed(3)} | ${pct(covered[name] / SAMPLES)} |`)
    t.ok(
      covered[name] / SAMPLES >= MIN_COVERAGE,
      `people.${name}: covers ${truth[name].toFixed(3)} in ${pct(covered[name] / SAMPLES)}`,
    )
  }
})
