import t from 'tap'
import { labelMix, RESAMPLES, solveMix } from '../../../src/core/review/label-mix.ts'
import type { WeightedRow } from '../../../src/core/review/audit.ts'
import { auditOfPopulation, cellsOf, precisionPopulation, type PrecisionRow } from '../../helpers/precision-population.ts'
import { seededRandom } from '../../../src/core/review/seeded-random.ts'

const row = (label: string, truth: string, weight = 1): WeightedRow => ({
  row: { stateHash: `${label}${truth}`, stratum: 'confident', label, p: 0.9, margin: 0.8, truth: [truth], correct: label === truth }, weight,
})

t.test('for yes/no the corrected share is Rogan and Gladen\'s', async (t) => {
  // Sensitivity 0.9 (90 of 100 true yes said yes), specificity 0.8 (160 of 200 true no said no).
  const rows = [row('yes', 'yes', 90), row('no', 'yes', 10), row('no', 'no', 160), row('yes', 'no', 40)]
  const q = 0.4
  const [yes, no] = solveMix(['yes', 'no'], [q, 1 - q], rows)!
  t.ok(Math.abs(yes - (q + 0.8 - 1) / (0.9 + 0.8 - 1)) < 1e-12, `${yes}`)
  t.ok(Math.abs(yes + no - 1) < 1e-12)
})

t.test('for more labels it inverts the confusion matrix, and refuses a singular one', async (t) => {
  const rows = [row('a', 'a', 8), row('b', 'a', 2), row('b', 'b', 9), row('c', 'b', 1), row('c', 'c', 10)]
  // M[j][i] = P(model j | truth i): a -> (0.8, 0.2, 0), b -> (0, 0.9, 0.1), c -> (0, 0, 1).
  const pi = [0.5, 0.3, 0.2]
  const q = [0.8 * pi[0], 0.2 * pi[0] + 0.9 * pi[1], 0.1 * pi[1] + pi[2]]
  const solved = solveMix(['a', 'b', 'c'], q, rows)!
  t.ok(solved.every((x, i) => Math.abs(x - pi[i]) < 1e-12), `${solved}`)
  t.equal(solveMix(['a', 'b', 'c'], q, rows.filter((r) => r.row.truth[0] !== 'c')), null, 'no row whose truth is c')
})

/** A model that says yes to every true yes and to 30% of true no: 30% yes in truth, about 51% as labelled. */
function overcalling(size: number): PrecisionRow[] {
  const random = seededRandom(8)
  return Array.from({ length: size }, (_, i) => {
    const p = Math.round((0.5 + Math.floor(random() * 50) / 100) * 100) / 100
    const yes = random() < 0.3
    const label = yes || random() < 0.3 ? 'yes' : 'no'
    return { hash: String(i), label, p, margin: Math.round((2 * p - 1) * 100) / 100, correct: yes ? label === 'yes' : label === 'no' }
  })
}

t.test('on a population with known truth, the corrected mix lands near the truth the raw one misses, inside its interval', async (t) => {
  const rows = overcalling(10000)
  const mix = labelMix(['yes', 'no'], cellsOf(rows), auditOfPopulation(rows, 0.2, 400, 9))
  const trueYes = rows.filter((r) => (r.correct ? r.label : r.label === 'yes' ? 'no' : 'yes') === 'yes').length / rows.length
  t.equal(mix.method, 'rogan-gladen')
  t.equal(mix.reason, null)
  const corrected = mix.corrected!.yes
  t.ok(Math.abs(mix.raw.yes - trueYes) > 0.15, `the raw share ${mix.raw.yes} is far from the true ${trueYes}`)
  t.ok(Math.abs(corrected.share - trueYes) < 0.05, `corrected ${corrected.share}, true ${trueYes}`)
  t.ok(corrected.interval[0] <= trueYes && trueYes <= corrected.interval[1], `${corrected.interval} holds ${trueYes}`)
  t.same(labelMix(['yes', 'no'], cellsOf(rows), auditOfPopulation(rows, 0.2, 400, 9)), mix, 'the bootstrap is seeded: the same audit, the same intervals')
  t.ok(RESAMPLES >= 200)
})

t.test('no corrected mix without answers or with a stratum unsampled, and the reason why', async (t) => {
  const rows = precisionPopulation(1000, 4)
  t.match(labelMix(['yes', 'no'], [], auditOfPopulation(rows, 0.2, 10, 1)), { corrected: null, reason: 'no answers' })
  const audit = auditOfPopulation(rows, 0.2, 10, 1)
  const unsampled = { ...audit, strata: { ...audit.strata, unsure: { ...audit.strata.unsure, rows: [] } } }
  t.match(labelMix(['yes', 'no'], cellsOf(rows), unsampled), { corrected: null, reason: 'no labelled sample in the unsure stratum' })
  t.match(labelMix(['a', 'b', 'c'], [{ label: 'a', p: 1, margin: 1, count: 3 }], { ...audit, strata: { unsure: { ...audit.strata.unsure, size: 0, rows: [] }, confident: { ...audit.strata.confident, rows: [] } } }), { method: 'confusion-inverse', corrected: null })
})
