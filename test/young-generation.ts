import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { capYoungGeneration, limitOldGeneration } from '../src/young-generation.ts'

t.test('the young generation is stopped from growing once it reaches the cap, and watched no more', async (t) => {
  let bytes = 10 * 1024 * 1024
  let reads = 0
  let stopped = 0
  const stop = capYoungGeneration(32, 1, { newSpaceBytes: () => (reads++, bytes), stopGrowing: () => stopped++, oldGrowth: () => {} })
  t.teardown(stop)
  await sleep(20)
  t.equal(stopped, 0, 'below the cap it is left alone')
  bytes = 40 * 1024 * 1024
  await sleep(20)
  t.equal(stopped, 1)
  const after = reads
  await sleep(20)
  t.equal(reads, after, 'no more polling')
})

t.test('the real heap control reads V8\'s young generation and stops its growth', async (t) => {
  const stop = capYoungGeneration(0, 1)
  await sleep(10)
  t.doesNotThrow(stop)
})

t.test('the old generation\'s growth is set once, as a percent past what was live', async (t) => {
  const set: number[] = []
  limitOldGeneration(15, { newSpaceBytes: () => 0, stopGrowing: () => {}, oldGrowth: (p) => set.push(p) })
  t.same(set, [15])
  t.doesNotThrow(() => limitOldGeneration(), 'the real heap control takes the flag')
})
