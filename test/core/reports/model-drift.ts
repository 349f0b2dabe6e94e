import t from 'tap'
import { dataChange, flipShare, modelChange, modelMixes } from '../../../src/core/reports/model-drift.ts'
import type { ModelCheck } from '../../../src/core/types.ts'

const check = (pairs: ModelCheck['pairs'], same_rows = false): ModelCheck => ({
  run_id: 'r2',
  baseline: 'r1',
  old_model: 'a',
  new_model: 'b',
  rows_from: 'sample',
  states: 4,
  same_rows,
  stopped: '',
  asked: 0,
  cost: 0,
  pairs,
})

t.test("the model part is the distance between the two models' mixes on the same rows, weighed by rows", async (t) => {
  const c = check([
    { question: 'q', old_label: 'yes', new_label: 'no', rows: 3 },
    { question: 'q', old_label: 'no', new_label: 'no', rows: 5 },
    { question: 'q', old_label: 'no', new_label: 'yes', rows: 1 },
    { question: 'q', old_label: 'yes', new_label: 'yes', rows: 1 },
    { question: 'other', old_label: 'x', new_label: 'y', rows: 100 },
  ])
  const mixes = modelMixes(c, 'q')
  t.same(mixes, { old: { yes: 0.4, no: 0.6 }, new: { no: 0.8, yes: 0.2 }, rows: 10, flipped: 4 })
  t.equal(modelChange(mixes), 0.2)
  t.equal(flipShare(mixes), 0.4, 'flips both ways can cancel in the mix; the share of flipped rows does not')
  t.equal(modelMixes(c, 'absent'), null)
  t.equal(modelChange(null), null)
  t.equal(flipShare(null), null)
})

t.test("the data part moves the baseline by the model's part and compares it with this run", async (t) => {
  const c = check([
    { question: 'q', old_label: 'no', new_label: 'yes', rows: 1 },
    { question: 'q', old_label: 'no', new_label: 'no', rows: 9 },
  ])
  const mixes = modelMixes(c, 'q')
  t.equal(dataChange(c, mixes, { yes: 0.2, no: 0.8 }, { yes: 0.3, no: 0.7 }), 0, 'all of the change was the model')
  t.equal(dataChange(c, mixes, { yes: 0.2, no: 0.8 }, { yes: 0.5, no: 0.5 }), 0.2)
  t.equal(dataChange(c, mixes, { no: 1 }, { yes: 0.1, no: 0.9 }), 0)
  t.equal(
    dataChange(check(c.pairs, true), mixes, { yes: 0.2, no: 0.8 }, { yes: 0.9, no: 0.1 }),
    0,
    'the same rows: none, whatever the sample',
  )
  t.equal(dataChange(c, null, { yes: 1 }, { no: 1 }), null)
  const gone = check([{ question: 'q', old_label: 'yes', new_label: 'no', rows: 1 }])
  t.equal(
    dataChange(gone, modelMixes(gone, 'q'), { yes: 0.5, no: 0.5 }, { no: 1 }),
    0,
    'a share moved below 0 is clamped',
  )
})
