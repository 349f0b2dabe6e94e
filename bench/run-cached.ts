import { createFakeEngine } from '../test/helpers/fake-engine.ts'
import { count, freshStore, note, report, type BenchResult } from './common.ts'
import { ensureInputs } from './generate.ts'
import { refusingEngine, runInProcess } from './in-process.ts'

const BAR = 20_000

/** `judge run` over 100,000 distinct rows, every answer already in the store: rows per second. */
export async function benchRunCached(): Promise<BenchResult> {
  const inputs = await ensureInputs()
  const store = freshStore('run-cached')
  const env = { JUDGE_STORE: store, JUDGE_MAX_COST: '1000' }

  note('warming the store: a first run over 100,000 rows with an instant fake engine')
  const engine = createFakeEngine()
  let started = performance.now()
  const [warm] = await runInProcess(inputs.rows100k, env, engine, ['--concurrency', '16'])
  note(`warm run: ${count(warm.asked)} answers asked in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  started = performance.now()
  const [run] = await runInProcess(inputs.rows100k, env, refusingEngine(engine.defaultModel!))
  const seconds = (performance.now() - started) / 1000
  if (run.asked !== 0 || run.rows !== 100_000)
    throw new Error(`expected 100,000 rows all cached, got ${JSON.stringify(run)}`)
  const rate = run.rows / seconds
  return {
    bench: 'run-cached',
    bar: `judge run over 100,000 rows all cached: >= ${count(BAR)} rows/s`,
    figure: `${count(rate)} rows/s (${count(run.rows)} rows, ${count(run.cached)} answers from the store, ${seconds.toFixed(2)} s wall, plan pass included)`,
    reference: `bar ${count(BAR)} rows/s`,
    ratio: `${(rate / BAR).toFixed(2)}x the bar`,
    pass: rate >= BAR,
    details: ['in-process through runCli; the engine throws if asked; the data file is read twice (plan, then run)'],
  }
}

if (import.meta.main) report(await benchRunCached())
