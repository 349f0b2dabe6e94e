import t from 'tap'
import { splitSample } from '../../../src/core/stability/sample-split.ts'

t.test('a sample is split in halves, the odd answer to the unsure stratum', async (t) => {
  t.same(splitSample(200, { split: 0, unsure: 1000, confident: 5000 }), { split: 0, unsure: 100, confident: 100 })
  t.same(splitSample(201, { split: 0, unsure: 1000, confident: 5000 }), { split: 0, unsure: 101, confident: 100 })
})

t.test(
  'what a small stratum cannot take goes to the other, and a sample above every answer takes them all',
  async (t) => {
    t.same(splitSample(200, { split: 0, unsure: 30, confident: 5000 }), { split: 0, unsure: 30, confident: 170 })
    t.same(splitSample(200, { split: 0, unsure: 5000, confident: 12 }), { split: 0, unsure: 188, confident: 12 })
    t.same(splitSample(200, { split: 0, unsure: 30, confident: 40 }), { split: 0, unsure: 30, confident: 40 })
    t.same(splitSample(200, { split: 0, unsure: 0, confident: 0 }), { split: 0, unsure: 0, confident: 0 })
  },
)
