import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startSystemOneServer } from '../test/helpers/system-one-server.ts'
import { DATA, SPEC, count, freshStore, note, report, type BenchResult } from './common.ts'
import { ensureInputs } from './generate.ts'
import { runChild, writeRows } from './rate-limit.ts'

/** The limit at the start, per second as recorded for System One in October (40 requests/s), and the bars. */
const PER_SECOND = 40
const LATENCY_MS = 50
const BAR_RATIO = 1.15
const BAR_REFUSED_SHARE = 0.05

/**
 * `node src/cli.ts run` over new distinct rows against a local System One server whose limit,
 * 40 requests in any second with ENGINE_RPM set to it, halves to 20 once half the rows were
 * answered, refusing with 429 and retry-after-ms beyond it. The ideal for the true limits is half
 * the rows at 40 a second and half at 20. `--rows N` sets the scale (default 2,000).
 */
export async function benchMovingLimit(rows: number): Promise<BenchResult> {
  await ensureInputs()
  const data = resolve(DATA, `sms-moving-${rows}.csv`)
  await writeRows(data, rows)
  const half = Number(process.env.BENCH_HALF ?? Math.floor(rows / 2))
  const limit = { requests: PER_SECOND, windowMs: 1000, retryAfterMs: true, halvesAfter: half }
  const engine = await startSystemOneServer({ expectKey: 'bench', latencyMs: LATENCY_MS, limit })
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      ENGINE_URL: engine.url,
      ENGINE_API_KEY: 'bench',
      JUDGE_STORE: freshStore('moving-limit'),
      JUDGE_MAX_COST: '1000',
      ENGINE_RPM: String(PER_SECOND * 60),
    }
    const ideal = half / PER_SECOND + (rows - half) / (PER_SECOND / 2)
    note(
      `judge run over ${count(rows)} new rows, ${PER_SECOND} requests a second halving to ${PER_SECOND / 2} after ${count(half)} (ideal ${ideal.toFixed(1)} s)`,
    )
    const started = performance.now()
    const out = await runChild(['run', SPEC, '--data', data, '--json'], env)
    const seconds = (performance.now() - started) / 1000
    const [run] = JSON.parse(out.stdout) as { rows: number; status: string }[]
    const answered = new Set(engine.answered.map((r) => r.body.state.message))
    if (out.code !== 0 || run.rows !== rows || answered.size !== rows || engine.answered.length !== rows) {
      throw new Error(
        `expected ${rows} rows each answered once, got exit ${out.code}, ${JSON.stringify(run)}, ${engine.answered.length} answers: ${out.stderr.slice(0, 500)}`,
      )
    }
    const refused = engine.refused()
    const share = refused / engine.requests.length
    return {
      bench: 'moving-limit',
      bar: `judge run of ${count(rows)} new rows while the limit halves midway: each row answered once, within ${Math.round((BAR_RATIO - 1) * 100)}% of the ideal for the true limits, under ${BAR_REFUSED_SHARE * 100}% of requests refused`,
      figure: `${seconds.toFixed(1)} s wall, ${refused} of ${count(engine.requests.length)} requests refused (429, ${(share * 100).toFixed(1)}%), exit 0`,
      reference: `ideal ${ideal.toFixed(1)} s (${count(half)} at ${PER_SECOND}/s, ${count(rows - half)} at ${PER_SECOND / 2}/s)`,
      ratio: `${(seconds / ideal).toFixed(3)}× the ideal`,
      pass: seconds / ideal <= BAR_RATIO && share < BAR_REFUSED_SHARE,
      details: [
        `ENGINE_RPM ${PER_SECOND * 60}; engine latency ${LATENCY_MS} ms; a sliding 1 s window; --concurrency 8`,
        `what judge run said: ${
          out.stderr
            .trim()
            .split('\n')
            .filter((l) => l.includes('ENGINE_RPM'))
            .join(' ') || '(nothing)'
        }`,
      ],
    }
  } finally {
    await engine.close()
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '2000' } } })
  report(await benchMovingLimit(Number(values.rows)))
}
