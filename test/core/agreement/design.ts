import t from 'tap'
import type { QuestionSample } from '../../../src/core/review/sample-design.ts'
import type { SampledRow, StratumSample } from '../../../src/core/review/stratum-sample.ts'
import type { Stratum } from '../../../src/core/review/strata.ts'
import type { Question } from '../../../src/core/types.ts'
import { designOf, labelsOf, simpleDesign } from '../../../src/core/agreement/design.ts'

const question: Question = {
  name: 'is_spam',
  ask: 'Spam?',
  type: 'yes_no',
  labels: ['yes', 'no'],
  descriptions: [null, null],
  fingerprint: 'f',
}
const row = (stratum: Stratum, label: string, truth: string[]): SampledRow => ({
  stateHash: `${stratum}${label}${truth}`,
  stratum,
  label,
  p: 0.9,
  margin: 0.8,
  truth,
  correct: truth.includes(label),
})
const sample = (stratum: Stratum, size: number, sampled: number, rows: SampledRow[]): StratumSample => ({
  stratum,
  size,
  sampled,
  rows,
  needs_context: 0,
  ambiguous: sampled - rows.length,
  outside: 0,
  next: null,
  needed: 0,
})
const audit = (unsure: StratumSample, confident: StratumSample): QuestionSample => ({
  question,
  strata: { split: sample('split', 0, 0, []), unsure, confident },
})

t.test(
  'each stratum weighs by its answers that can be labelled, and each row stands for N_h / k_h of them',
  async (t) => {
    const unsure = sample(
      'unsure',
      100,
      10,
      Array.from({ length: 8 }, () => row('unsure', 'yes', ['no'])),
    )
    const confident = sample(
      'confident',
      900,
      30,
      Array.from({ length: 30 }, () => row('confident', 'yes', ['yes'])),
    )
    const design = designOf(audit(unsure, confident))
    if ('reason' in design) throw new Error(design.reason)
    const [u, c] = design.strata
    t.equal(u.share, 80 / 980, 'two of ten unsure rows were ambiguous: the stratum weighs 80 answers')
    t.equal(c.share, 900 / 980)
    t.equal(u.weight, 10)
    t.equal(c.weight, 30)
    t.equal(u.fpc, 0.9)
    t.equal(c.fpc, 1 - 30 / 900)
    t.same(u.rows[0], { a: 'yes', b: 'no' })
  },
)

t.test(
  "a row whose true labels include the model's is reviewed as the model's label, else as its first true label",
  async (t) => {
    const rows = [
      row('confident', 'yes', ['no', 'yes']),
      row('confident', 'no', ['yes', 'no']),
      row('confident', 'no', ['yes']),
    ]
    const design = designOf(audit(sample('unsure', 0, 0, []), sample('confident', 50, 3, rows)))
    if ('reason' in design) throw new Error(design.reason)
    t.equal(design.strata.length, 1, 'an empty stratum is left out')
    t.same(design.strata[0].rows, [
      { a: 'yes', b: 'yes' },
      { a: 'no', b: 'no' },
      { a: 'no', b: 'yes' },
    ])
  },
)

t.test('no design while a stratum with answers has no labelled row, unless it was reviewed whole', async (t) => {
  const labelled = sample('confident', 50, 3, [row('confident', 'yes', ['yes'])])
  t.same(designOf(audit(sample('unsure', 20, 2, []), labelled)), { reason: 'no labelled sample in the unsure stratum' })
  const whole = designOf(audit(sample('unsure', 2, 2, []), labelled))
  t.ok(
    'strata' in whole && whole.strata.length === 1,
    'a stratum reviewed whole, every row ambiguous, holds nothing to label',
  )
  t.same(designOf(audit(sample('unsure', 2, 2, []), sample('confident', 1, 1, []))), { reason: 'no labelled rows' })
})

t.test('pairs alone make one stratum of equal weights without a finite population', async (t) => {
  t.same(simpleDesign([{ a: 'x', b: 'y' }]), [
    { stratum: 'all', share: 1, weight: 1, fpc: 1, rows: [{ a: 'x', b: 'y' }] },
  ])
})

t.test("labels come in the question's order, then any other seen", async (t) => {
  t.same(labelsOf(simpleDesign([{ a: 'maybe', b: 'no' }]), ['yes', 'no']), ['yes', 'no', 'maybe'])
})
