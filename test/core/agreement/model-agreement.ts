import t from 'tap'
import type { QuestionSample } from '../../../src/core/review/sample-design.ts'
import { estimateAccuracy } from '../../../src/core/review/estimate.ts'
import type { SampledRow, StratumSample } from '../../../src/core/review/stratum-sample.ts'
import type { Stratum } from '../../../src/core/review/strata.ts'
import type { Question } from '../../../src/core/types.ts'
import { modelAgreement } from '../../../src/core/agreement/model-agreement.ts'

const question: Question = {
  name: 'is_spam',
  ask: 'Spam?',
  type: 'yes_no',
  labels: ['yes', 'no'],
  descriptions: [null, null],
  fingerprint: 'f',
}
const rows = (n: number, stratum: Stratum, label: string, truth: string): SampledRow[] =>
  Array.from({ length: n }, (_, i) => ({
    stateHash: `${stratum}${label}${truth}${i}`,
    stratum,
    label,
    p: 0.9,
    margin: 0.8,
    truth: [truth],
    correct: label === truth,
  }))
const sample = (stratum: Stratum, size: number, sampled: number, list: SampledRow[]): StratumSample => ({
  stratum,
  size,
  sampled,
  rows: list,
  needs_context: 0,
  ambiguous: sampled - list.length,
  outside: 0,
  next: null,
  needed: 0,
})

// The worked example of docs/review.md, The estimate: 150 unsure answers (20 reviewed, 12 right),
// 850 confident (30 reviewed, 28 right, one ambiguous).
const audit: QuestionSample = {
  question,
  strata: {
    split: sample('split', 0, 0, []),
    unsure: sample('unsure', 150, 20, [
      ...rows(7, 'unsure', 'yes', 'yes'),
      ...rows(5, 'unsure', 'no', 'no'),
      ...rows(5, 'unsure', 'yes', 'no'),
      ...rows(3, 'unsure', 'no', 'yes'),
    ]),
    confident: sample('confident', 850, 30, [
      ...rows(10, 'confident', 'yes', 'yes'),
      ...rows(18, 'confident', 'no', 'no'),
      ...rows(1, 'confident', 'no', 'yes'),
    ]),
  },
}

t.test("raw agreement is the estimate's accuracy, and κ stands beside it", async (t) => {
  const agreement = modelAgreement(audit)
  const estimate = estimateAccuracy(audit, { accuracy: null, interval: null, counted: 0 })
  t.ok(
    Math.abs(agreement.raw_agreement! - estimate.point!) < 1e-12,
    `${agreement.raw_agreement} against ${estimate.point}`,
  )
  t.ok(Math.abs(agreement.raw_agreement_interval![0] - estimate.interval![0]) < 0.01)
  t.equal(agreement.rows, 49)
  t.equal(agreement.reason, null)
  t.ok(agreement.kappa! > 0 && agreement.kappa! < agreement.raw_agreement!)
  t.ok(agreement.kappa_interval![0] < agreement.kappa! && agreement.kappa! < agreement.kappa_interval![1])
})

t.test('the confusion matrix counts answers: each row weighs the answers of its stratum it stands for', async (t) => {
  const { confusion } = modelAgreement(audit)
  const expected = {
    yes: { yes: 7 * 7.5 + (10 * 850) / 30, no: 5 * 7.5 },
    no: { yes: 3 * 7.5 + 850 / 30, no: 5 * 7.5 + (18 * 850) / 30 },
  }
  t.same(Object.keys(confusion), ['yes', 'no'])
  for (const m of ['yes', 'no'] as const)
    for (const r of ['yes', 'no'] as const)
      t.ok(Math.abs(confusion[m][r] - expected[m][r]) < 1e-9, `model ${m}, reviewed ${r}: ${confusion[m][r]}`)
  const total = Object.values(confusion)
    .flatMap((r) => Object.values(r))
    .reduce((a, b) => a + b, 0)
  t.ok(Math.abs(total - (150 + (850 * 29) / 30)) < 1e-9, 'the cells add up to the answers that can be labelled')
})

t.test('per label: precision, recall and F1 of the model against the reviewed labels', async (t) => {
  const { per_label: perLabel, confusion } = modelAgreement(audit)
  const yes = confusion.yes.yes
  t.ok(Math.abs(perLabel.yes.precision!.point - yes / (yes + confusion.yes.no)) < 1e-12)
  t.ok(Math.abs(perLabel.yes.recall!.point - yes / (yes + confusion.no.yes)) < 1e-12)
  t.ok(
    Math.abs(
      perLabel.no.f1!.point - (2 * confusion.no.no) / (2 * confusion.no.no + confusion.no.yes + confusion.yes.no),
    ) < 1e-12,
  )
})

t.test('without a labelled sample in every stratum, nothing is given, and the reason is', async (t) => {
  const short: QuestionSample = { question, strata: { ...audit.strata, unsure: sample('unsure', 150, 2, []) } }
  t.same(modelAgreement(short), {
    rows: 0,
    kappa: null,
    kappa_interval: null,
    raw_agreement: null,
    raw_agreement_interval: null,
    ac1: null,
    ac1_interval: null,
    kappa_linear: null,
    kappa_linear_interval: null,
    kappa_quadratic: null,
    kappa_quadratic_interval: null,
    confusion: { yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0 } },
    per_label: { yes: { precision: null, recall: null, f1: null }, no: { precision: null, recall: null, f1: null } },
    reason: 'no labelled sample in the unsure stratum',
  })
})

t.test(
  'a model and reviewers that only ever say one label give raw agreement with κ null and its reason',
  async (t) => {
    const one: QuestionSample = {
      question,
      strata: {
        split: sample('split', 0, 0, []),
        unsure: sample('unsure', 0, 0, []),
        confident: sample('confident', 100, 5, rows(5, 'confident', 'yes', 'yes')),
      },
    }
    const agreement = modelAgreement(one)
    t.equal(agreement.raw_agreement, 1)
    t.equal(agreement.kappa, null)
    t.match(agreement.reason, /κ is undefined/)
  },
)
