import t from 'tap'
import { labelScores, weightedConfusion } from '../../../src/core/agreement/label-scores.ts'
import { simpleDesign, type DesignStratum, type LabelPair } from '../../../src/core/agreement/design.ts'

const rows = (n: number, a: string, b: string): LabelPair[] => Array.from({ length: n }, () => ({ a, b }))

t.test("the confusion matrix adds each row's weight under its model label and reviewed label", async (t) => {
  const strata: DesignStratum[] = [
    {
      stratum: 'confident',
      share: 0.75,
      weight: 30,
      fpc: 1,
      rows: [...rows(2, 'yes', 'yes'), ...rows(1, 'no', 'yes')],
    },
    { stratum: 'unsure', share: 0.25, weight: 10, fpc: 1, rows: [...rows(2, 'no', 'no'), ...rows(1, 'maybe', 'no')] },
  ]
  t.same(weightedConfusion(strata, ['yes', 'no', 'unused']), {
    yes: { yes: 60, no: 0, unused: 0, maybe: 0 },
    no: { yes: 30, no: 20, unused: 0, maybe: 0 },
    unused: { yes: 0, no: 0, unused: 0, maybe: 0 },
    maybe: { yes: 0, no: 10, unused: 0, maybe: 0 },
  })
})

t.test('precision, recall and F1 of each label, with intervals around them', async (t) => {
  const design = simpleDesign([
    ...rows(30, 'yes', 'yes'),
    ...rows(10, 'yes', 'no'),
    ...rows(5, 'no', 'yes'),
    ...rows(55, 'no', 'no'),
  ])
  const scores = labelScores(design, ['yes', 'no'])
  const yes = scores.yes
  t.ok(Math.abs(yes.precision!.point - 0.75) < 1e-12)
  t.ok(Math.abs(yes.recall!.point - 30 / 35) < 1e-12)
  t.ok(Math.abs(yes.f1!.point - 60 / 75) < 1e-12, '2TP / (2TP + FP + FN)')
  for (const figure of [yes.precision!, yes.recall!, yes.f1!, scores.no.f1!]) {
    t.ok(
      figure.interval[0] < figure.point &&
        figure.point < figure.interval[1] &&
        figure.interval[0] >= 0 &&
        figure.interval[1] <= 1,
      `${figure.point} in ${figure.interval}`,
    )
  }
})

t.test('a label never given nor reviewed has no scores', async (t) => {
  t.same(labelScores(simpleDesign(rows(4, 'yes', 'yes')), ['yes', 'no']).no, {
    precision: null,
    recall: null,
    f1: null,
  })
})
