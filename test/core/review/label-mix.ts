import t from 'tap'
import { labelMix, MIX_METHOD } from '../../../src/core/review/label-mix.ts'
import type { QuestionSample } from '../../../src/core/review/sample-design.ts'
import type { SampledRow, StratumSample } from '../../../src/core/review/stratum-sample.ts'
import type { Stratum } from '../../../src/core/review/strata.ts'
import type { Question } from '../../../src/core/types.ts'
import {
  auditOfPopulation,
  cellsOf,
  precisionPopulation,
  type PrecisionRow,
} from '../../helpers/precision-population.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'

const question = { name: 'q', labels: ['yes', 'no'] } as unknown as Question

/** A stratum's sample from (model label, true labels) pairs. */
function stratum(
  s: Stratum,
  size: number,
  rows: readonly [string, readonly string[]][],
  sampled = rows.length,
): StratumSample {
  const sample = rows.map(
    ([label, truth], i): SampledRow => ({
      stateHash: `${s}${i}`,
      stratum: s,
      label,
      p: 0.9,
      margin: s === 'unsure' ? 0.1 : 0.8,
      truth,
      correct: truth.includes(label),
    }),
  )
  return { stratum: s, size, sampled, rows: sample, needs_context: 0, ambiguous: 0, outside: 0, next: null, needed: 0 }
}
const audit = (unsure: StratumSample, confident: StratumSample): QuestionSample => ({
  question,
  strata: { split: stratum('split', 0, []), unsure, confident },
})
const repeat = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x)

t.test('a model never wrong in the sample gives its own mix, with an interval that still has width', async (t) => {
  // 100 answers, all confident: 40 yes, 60 no; 20 reviewed, each the model's label.
  const cells = [
    { label: 'yes', p: 0.9, margin: 0.8, count: 40 },
    { label: 'no', p: 0.9, margin: 0.8, count: 60 },
  ]
  const sample = [
    ...repeat(8, ['yes', ['yes']] as [string, string[]]),
    ...repeat(12, ['no', ['no']] as [string, string[]]),
  ]
  const mix = labelMix(['yes', 'no'], cells, audit(stratum('unsure', 0, []), stratum('confident', 100, sample)), 0.2)
  t.equal(mix.method, MIX_METHOD)
  t.same(mix.raw, { yes: 0.4, no: 0.6 })
  t.ok(Math.abs(mix.corrected!.yes.share - 0.4) < 1e-12, "the model's share, corrected by nothing")
  t.ok(
    mix.corrected!.yes.interval[0] < 0.4 && mix.corrected!.yes.interval[1] > 0.4,
    'never a zero-width interval from a sample of twenty',
  )
})

t.test("the model's share is corrected by the difference the reviews show, stratum by stratum", async (t) => {
  // Confident: the model says yes to 50 of 100, and the sample shows one yes of five was really no.
  const cells = [
    { label: 'yes', p: 0.9, margin: 0.8, count: 50 },
    { label: 'no', p: 0.9, margin: 0.8, count: 50 },
  ]
  const sample: [string, string[]][] = [
    ['yes', ['yes']],
    ['yes', ['yes']],
    ['yes', ['yes']],
    ['yes', ['yes']],
    ['yes', ['no']],
    ...repeat(5, ['no', ['no']] as [string, string[]]),
  ]
  const mix = labelMix(['yes', 'no'], cells, audit(stratum('unsure', 0, []), stratum('confident', 100, sample)), 0.2)
  const yes = mix.corrected!.yes
  t.ok(yes.share < 0.5 && yes.share >= 0.35, `a share below the model's 50% (${yes.share})`)
  t.ok(yes.interval[0] >= 0 && yes.interval[1] <= 1 && yes.interval[0] <= yes.share && yes.share <= yes.interval[1])
})

t.test('a row that two labels fit counts half to each', async (t) => {
  const cells = [{ label: 'yes', p: 0.9, margin: 0.8, count: 10 }]
  const mix = labelMix(
    ['yes', 'no'],
    cells,
    audit(stratum('unsure', 0, []), stratum('confident', 10, [['yes', ['yes', 'no']]], 10)),
    0.2,
  )
  t.equal(mix.corrected!.yes.share + mix.corrected!.no.share, 1)
  t.equal(mix.corrected!.no.share, 0.5, 'the whole stratum reviewed: its one labelled row, half no')
})

/** A model that says yes to every true yes and to 30% of true no: 30% yes in truth, about 51% as labelled. */
function overcalling(size: number): PrecisionRow[] {
  const random = seededRandom(8)
  return Array.from({ length: size }, (_, i) => {
    const p = Math.round((0.5 + Math.floor(random() * 50) / 100) * 100) / 100
    const yes = random() < 0.3
    const label = yes || random() < 0.3 ? 'yes' : 'no'
    return {
      hash: String(i),
      label,
      p,
      margin: Math.round((2 * p - 1) * 100) / 100,
      correct: yes ? label === 'yes' : label === 'no',
    }
  })
}

t.test(
  'on a population with known truth, the corrected mix lands near the truth the raw one misses, inside its interval',
  async (t) => {
    const rows = overcalling(10000)
    const mix = labelMix(['yes', 'no'], cellsOf(rows), auditOfPopulation(rows, 0.2, 400, 9), 0.2)
    const trueYes =
      rows.filter((r) => (r.correct ? r.label : r.label === 'yes' ? 'no' : 'yes') === 'yes').length / rows.length
    t.equal(mix.reason, null)
    const corrected = mix.corrected!.yes
    t.ok(Math.abs(mix.raw.yes - trueYes) > 0.15, `the raw share ${mix.raw.yes} is far from the true ${trueYes}`)
    t.ok(Math.abs(corrected.share - trueYes) < 0.05, `corrected ${corrected.share}, true ${trueYes}`)
    t.ok(corrected.interval[0] <= trueYes && trueYes <= corrected.interval[1], `${corrected.interval} holds ${trueYes}`)
    t.same(
      labelMix(['yes', 'no'], cellsOf(rows), auditOfPopulation(rows, 0.2, 400, 9), 0.2),
      mix,
      'the same audit, the same figures',
    )
  },
)

t.test('no corrected mix without answers or with a stratum unsampled, and the reason why', async (t) => {
  const rows = precisionPopulation(1000, 4)
  t.match(labelMix(['yes', 'no'], [], auditOfPopulation(rows, 0.2, 10, 1), 0.2), {
    corrected: null,
    reason: 'no answers',
    method: MIX_METHOD,
  })
  const sampled = auditOfPopulation(rows, 0.2, 10, 1)
  const unsampled = { ...sampled, strata: { ...sampled.strata, unsure: { ...sampled.strata.unsure, rows: [] } } }
  t.match(labelMix(['yes', 'no'], cellsOf(rows), unsampled, 0.2), {
    corrected: null,
    reason: 'no labelled sample in the unsure stratum',
  })
})
