import t from 'tap'
import { fitJury } from '../../../src/core/jury/dawid-skene.ts'
import { juryVerdict } from '../../../src/core/jury/jury-answer.ts'

t.test("a jury's answer is its distribution over the labels by name, its dissent and how it was made", async (t) => {
  const fit = fitJury({ labels: ['yes', 'no'], jurors: 3, patterns: [{ said: [0, 0, 1], count: 1 }], anchors: [] })
  t.same(juryVerdict(fit, [0, 0, 1]), { distribution: { yes: 2 / 3, no: 1 / 3 }, dissent: 1, source: 'vote' })
  t.same(juryVerdict(fit, [1, null, 1]), { distribution: { yes: 0, no: 1 }, dissent: 0, source: 'vote' })
})
