import t from 'tap'
import { cutsOf, gridCells, pNanosOf, resolutionOf } from '../../../src/core/tally/cells.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'

t.test('exact cells gather into the grid, labels apart, p summed in nanos', async (t) => {
  const cells = gridCells([
    { label: 'yes', p: 0.873, margin: 0.746, count: 2 },
    { label: 'yes', p: 0.871, margin: 0.742, count: 1 },
    { label: 'no', p: 0.873, margin: 0.746, count: 1 },
    { label: 'yes', p: 0.87, margin: 0.74, count: 4 },
    { label: 'yes', p: 0.875, margin: 0.75, count: 1 },
  ])
  t.same(cells, [
    { label: 'no', p: 0.875, margin: 0.745, count: 1, pNanos: 873_000_000 },
    { label: 'yes', p: 0.87, margin: 0.74, count: 4, pNanos: 3_480_000_000 },
    { label: 'yes', p: 0.875, margin: 0.745, count: 3, pNanos: 2_617_000_000 },
    { label: 'yes', p: 0.875, margin: 0.75, count: 1, pNanos: 875_000_000 },
  ])
  t.same(gridCells(cells), cells, 'gathering grid cells again changes nothing')
  t.equal(pNanosOf({ label: 'yes', p: 0.5, margin: 0, count: 3 }), 1_500_000_000)
})

const SPEC = `name: spam
state: [message]
questions:
  is_spam: {ask: Spam?, type: yes_no}
  topic: {ask: Topic?, labels: [personal, promotion]}
act:
  is_spam:
    - route: block
      when: {label: yes, p: ">= 0.95"}
    - route: review
      when: {margin: "< 0.3"}
    - route: deliver
`

t.test(
  'a question needs every exact value only when a value its figures compare with falls between hundredths',
  async (t) => {
    const spec = parseSpec(SPEC, 'spam.judge.yaml')
    t.same(cutsOf(spec, spec.questions[0]), [0.2, 0.95, 0.3])
    t.equal(resolutionOf(spec, spec.questions[0]), 'grid')
    t.equal(resolutionOf(spec, spec.questions[1]), 'grid')
    const fine = parseSpec(SPEC.replace('>= 0.95', '>= 0.975'), 'spam.judge.yaml')
    t.equal(resolutionOf(fine, fine.questions[0]), 'exact', 'an act value of thousandths')
    t.equal(resolutionOf(fine, fine.questions[1]), 'grid', 'another question keeps the grid')
    const unsure = parseSpec(`${SPEC}unsure_below: 0.125\n`, 'spam.judge.yaml')
    t.equal(resolutionOf(unsure, unsure.questions[1]), 'exact', 'unsure_below between hundredths')
  },
)
