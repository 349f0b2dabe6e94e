import t from 'tap'
import { comparedRows, jurorAccuracy, type LabelsOf } from '../../../src/core/jury/juror-accuracy.ts'
import { newcombeInterval } from '../../../src/core/stats/newcombe.ts'

// Ten reviewed rows r0…r9, all truly `yes`; r10 is reviewed but juror c never answered it, r11 the jury never did.
const rows = Array.from({ length: 12 }, (_, i) => `r${i}`)
const truth = new Map(rows.map((h) => [h, ['yes']]))
/** A labeller right (yes) on the rows given, wrong (no) on the others of r0…r11, without the rows left out. */
const labeller = (model: string, right: readonly number[], without: readonly number[] = []): LabelsOf => ({
  model,
  labels: new Map(
    rows.flatMap((h, i) => (without.includes(i) ? [] : [[h, right.includes(i) ? 'yes' : 'no'] as const])),
  ),
})
const jury = labeller('jury:a+b+c', [0, 1, 2, 3, 4, 5, 6, 7, 10], [11])
const a = labeller('a', [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11])
const b = labeller('b', [0, 1, 2, 3, 4, 5, 8])
const c = labeller('c', [0, 1, 2, 3, 4], [10])

t.test('the compared rows are the reviewed rows the jury and every juror answered', async (t) => {
  t.same(comparedRows({ truth, jury, jurors: [a, b, c] }), rows.slice(0, 10))
  t.same(
    comparedRows({ truth: new Map([['r0', ['yes']]]), jury, jurors: [] }),
    ['r0'],
    'a row people did not review is not compared',
  )
})

t.test('each juror and the jury on the same rows, each juror against the jury', async (t) => {
  const { jury: j, jurors } = jurorAccuracy({ truth, jury, jurors: [a, b, c] })
  t.match(j, { model: 'jury:a+b+c', rows: 10, correct: 8, accuracy: 0.8 })
  // Wilson's interval of 8 of 10: 0.490 to 0.943.
  t.equal(j.interval![0].toFixed(3), '0.490')
  t.equal(j.interval![1].toFixed(3), '0.943')
  t.same(
    jurors.map((x) => [x.model, x.rows, x.correct, x.accuracy]),
    [
      ['a', 10, 9, 0.9],
      ['b', 10, 7, 0.7],
      ['c', 10, 5, 0.5],
    ],
  )
  // a: right on r8 where the jury is not (1 win, 0 losses); b: 1 win (r8), 2 losses (r6, r7); c: 3 losses (r5…r7).
  t.equal(jurors[0].versus_jury!.difference.toFixed(6), '0.100000')
  t.equal(jurors[1].versus_jury!.difference.toFixed(6), '-0.100000')
  t.equal(jurors[2].versus_jury!.difference.toFixed(6), '-0.300000')
  t.same(jurors[2].versus_jury!.interval, newcombeInterval({ both: 5, firstOnly: 0, secondOnly: 3, neither: 2 }))
  t.equal(jurors[0].versus_jury!.p_value, 1, 'McNemar: one discordant row')
  t.equal(jurors[2].versus_jury!.p_value.toFixed(6), '0.250000', 'McNemar: 0 of 3, 2 × ½³')
  const [low, high] = jurors[2].versus_jury!.interval
  t.ok(low < -0.3 && 0 < high, `${low} < -0.3 < 0 < ${high}: ten rows do not show that c is worse`)
})

t.test('a row people found both labels acceptable for is right either way', async (t) => {
  const both = new Map([['r9', ['yes', 'no']]])
  const { jury: j, jurors } = jurorAccuracy({ truth: both, jury, jurors: [c] })
  t.match(j, { rows: 1, correct: 1, accuracy: 1 })
  t.match(jurors[0], { rows: 1, correct: 1, accuracy: 1, versus_jury: { difference: 0 } })
})

t.test('without compared rows there is no figure', async (t) => {
  const { jury: j, jurors } = jurorAccuracy({ truth: new Map(), jury, jurors: [a] })
  t.same(j, { model: 'jury:a+b+c', rows: 0, correct: 0, accuracy: null, interval: null })
  t.same(jurors[0].versus_jury, null)
  t.equal(jurors[0].accuracy, null)
})
