import { createFakeEngine } from '../test/helpers/fake-engine.ts'
import { count, freshStore, note, report, type BenchResult } from './common.ts'
import { ensureInputs } from './generate.ts'
import { runInProcess } from './in-process.ts'

const BAR = 0.9
const LATENCY_MS = 100
const CONCURRENCY = 16
const ROWS = 1_600

/**
 * `judge run` over 1,600 distinct, uncached rows against a fake engine that answers after 100 ms,
 * with --concurrency 16: rows per second against the ideal of 16 requests per 100 ms.
 */
export async function benchRunLatency(): Promise<BenchResult> {
  const inputs = await ensureInputs()
  const env = { JUDGE_STORE: freshStore('run-latency'), JUDGE_MAX_COST: '1000' }
  const engine = createFakeEngine({ latencyMs: LATENCY_MS })
  note(`judging ${count(ROWS)} rows, ${LATENCY_MS} ms per engine request, ${CONCURRENCY} in flight`)
  const started = performance.now()
  const [run] = await runInProcess(inputs.rows1600, env, engine, ['--concurrency', String(CONCURRENCY)])
  const seconds = (performance.now() - started) / 1000
  if (run.rows !== ROWS || run.requests !== ROWS)
    throw new Error(`expected ${ROWS} rows each asked once, got ${JSON.stringify(run)}`)
  const ideal = (CONCURRENCY * 1000) / LATENCY_MS
  const rate = run.rows / seconds
  return {
    bench: 'run-latency',
    bar: `judge run, fake engine at ${LATENCY_MS} ms, --concurrency ${CONCURRENCY}: >= ${BAR * 100}% of the ideal ${ideal} rows/s`,
    figure: `${rate.toFixed(1)} rows/s (${count(run.rows)} distinct rows, ${count(run.requests)} requests, ${seconds.toFixed(2)} s wall, plan pass included)`,
    reference: `ideal ${ideal} rows/s (${CONCURRENCY} requests per ${LATENCY_MS} ms)`,
    ratio: `${((rate / ideal) * 100).toFixed(1)}% of ideal (bar ${BAR * 100}%)`,
    pass: rate / ideal >= BAR,
    details: [`most engine requests in flight at once: ${engine.maxInFlight}`],
  }
}

if (import.meta.main) report(await benchRunLatency())
