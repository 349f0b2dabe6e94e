import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { execFileSync } from 'node:child_process'
import { capYoungGeneration, holdWasmAtBaseline, limitOldGeneration } from '../src/heap-limits.ts'

t.test('the young generation is stopped from growing once it reaches the cap, and watched no more', async (t) => {
  let bytes = 10 * 1024 * 1024
  let reads = 0
  let stopped = 0
  const stop = capYoungGeneration(32, 1, {
    newSpaceBytes: () => (reads++, bytes),
    stopGrowing: () => stopped++,
    oldGrowth: () => {},
    stopWasmTierUp: () => {},
  })
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

t.test("the real heap control reads V8's young generation and stops its growth", async (t) => {
  const stop = capYoungGeneration(0, 1)
  await sleep(10)
  t.doesNotThrow(stop)
})

t.test("the old generation's growth is set once, as a percent past what was live", async (t) => {
  const set: number[] = []
  limitOldGeneration(15, {
    newSpaceBytes: () => 0,
    stopGrowing: () => {},
    oldGrowth: (p) => set.push(p),
    stopWasmTierUp: () => {},
  })
  t.same(set, [15])
  t.doesNotThrow(() => limitOldGeneration(), 'the real heap control takes the flag')
})

t.test('holding WebAssembly at the baseline tier stops its tier-up', async (t) => {
  let stops = 0
  holdWasmAtBaseline({
    newSpaceBytes: () => 0,
    stopGrowing: () => {},
    oldGrowth: () => {},
    stopWasmTierUp: () => stops++,
  })
  t.equal(stops, 1)
})

t.test('with the real control, a hot WebAssembly function is never optimized; without it, it is', async (t) => {
  // A module exporting f(x) = x + 1, called five million times a round; V8's natives say which
  // tier runs it. V8 optimizes on a worker thread, so the default case waits up to 50 rounds for it
  // (a loaded machine may take long); the held case runs 20 rounds, where V8 needs one
  // (or five with the largest tiering budget it takes, which only delays it).
  const script = (hold: boolean): string => `
    ${hold ? `const { holdWasmAtBaseline } = await import(${JSON.stringify(new URL('../src/heap-limits.ts', import.meta.url).href)}); holdWasmAtBaseline()` : ''}
    const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,5,1,1,102,0,0,10,9,1,7,0,32,0,65,1,106,11])
    const f = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f
    let x = 0
    for (let round = 0; round < ${hold ? 20 : 50} && !%IsTurboFanFunction(f); round++) {
      for (let i = 0; i < 5_000_000; i++) x = f(x)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    console.log(JSON.stringify({ called: x > 0 && x % 5_000_000 === 0, baseline: %IsLiftoffFunction(f), optimized: %IsTurboFanFunction(f) }))`
  const run = (hold: boolean) =>
    JSON.parse(
      execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script(hold)], {
        encoding: 'utf8',
      }),
    )
  t.same(run(false), { called: true, baseline: false, optimized: true }, 'V8 optimizes it by default')
  t.same(run(true), { called: true, baseline: true, optimized: false }, 'held, it stays at the baseline tier')
})
