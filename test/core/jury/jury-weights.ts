import t from 'tap'
import { fitJury, MIN_REVIEWED, type JuryInput } from '../../../src/core/jury/dawid-skene.ts'
import { juryWeights } from '../../../src/core/jury/jury-weights.ts'

// docs/review.md, "A worked example": two jurors, labels no (0) and yes (1), nine rows, three of them reviewed.
const WORKED: JuryInput = {
  labels: ['no', 'yes'],
  jurors: 2,
  patterns: [
    { said: [0, 0], count: 3 },
    { said: [0, 1], count: 2 },
    { said: [1, 1], count: 3 },
    { said: [1, 0], count: 1 },
  ],
  anchors: [
    { said: [0, 0], truth: 0 },
    { said: [0, 1], truth: 1 },
    { said: [1, 1], truth: 1 },
  ],
}

const six = (x: number) => x.toFixed(6)

t.test("a jury's weights by label: the worked example's prior, matrices and accuracies", async (t) => {
  const w = juryWeights(fitJury(WORKED, { minReviewed: 3 }), ['a', 'b'])
  t.match(w, { kind: 'jury', reviewed: 3, complete: 3, needed: 0, converged: true, iterations: 40 })
  t.same(Object.keys(w.prior), ['no', 'yes'])
  t.same([six(w.prior.no), six(w.prior.yes)], ['0.418138', '0.581862'])
  t.same(
    w.jurors.map((j) => [
      j.model,
      six(j.confusion!.no.no),
      six(j.confusion!.no.yes),
      six(j.confusion!.yes.no),
      six(j.confusion!.yes.yes),
      six(j.accuracy!),
    ]),
    [
      ['a', '0.680560', '0.319440', '0.430944', '0.569056', '0.615680'],
      ['b', '0.719728', '0.280272', '0.266181', '0.733819', '0.727927'],
    ],
  )
})

t.test("each interval is the fit's, under its truth and said label", async (t) => {
  const fit = fitJury(WORKED, { minReviewed: 3 })
  const w = juryWeights(fit, ['a', 'b'])
  // Juror b said yes on both reviewed rows of truth yes, and no on the one of truth no.
  t.same(w.jurors[1].intervals!.yes.yes, fit.intervals![1][1][1])
  t.same(w.jurors[1].intervals!.yes.no, fit.intervals![1][1][0])
  t.same(w.jurors[0].intervals!.no.yes, fit.intervals![0][0][1])
  t.equal(w.jurors[1].intervals!.yes.no[0], 0, 'never said no of a yes row: the interval starts at 0')
})

t.test('an equal vote: no matrices, and the reviewed rows it still wants', async (t) => {
  const w = juryWeights(fitJury(WORKED), ['a', 'b'])
  t.match(w, { kind: 'vote', reviewed: 3, complete: 3, needed: MIN_REVIEWED - 3, converged: true, iterations: 0 })
  t.same(w.jurors, [
    { model: 'a', accuracy: null, confusion: null, intervals: null },
    { model: 'b', accuracy: null, confusion: null, intervals: null },
  ])
  // The vote's mix: 3 rows no, 3 yes, 3 split half and half, of nine.
  t.same([six(w.prior.no), six(w.prior.yes)], ['0.500000', '0.500000'])
  const partial = fitJury({ ...WORKED, anchors: [...WORKED.anchors, { said: [1, null], truth: 1 }] })
  t.match(juryWeights(partial, ['a', 'b']), { reviewed: 4, complete: 3, needed: MIN_REVIEWED - 3 })
})

t.test('a fit that stopped before converging says so', async (t) => {
  const w = juryWeights(fitJury(WORKED, { minReviewed: 3, maxIterations: 2 }), ['a', 'b'])
  t.match(w, { kind: 'jury', converged: false, iterations: 2 })
})

t.test('the models must name every juror of the fit', async (t) => {
  t.throws(() => juryWeights(fitJury(WORKED), ['a']), /juryWeights: the fit has 2 jurors, but 1 models are named/)
})
