import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { resolve } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { startSystemOneServer } from '../test/helpers/system-one-server.ts'
import { DATA, PROJECT, ROOT, SPEC, count, freshStore, note, report, type BenchResult } from './common.ts'
import { ensureInputs, messageAt, sourceMessages } from './generate.ts'

const ROWS = 3_000
const LIMIT_PER_MINUTE = 1_200
const RETRY_AFTER_S = '10'
const LATENCY_MS = 100
/** The bar: one invocation that finishes within 10% of the ideal, with at most a handful of refusals. */
const BAR_RATIO = 1.1
const BAR_REFUSED = 5

/**
 * `node src/cli.ts run` over 3,000 new distinct rows against a local System One wire-format server
 * that enforces the API's published 1,200 requests a minute (a sliding minute; 429 with
 * Retry-After: 10 beyond it) and answers after 100 ms, with ENGINE_RPM left at its default:
 * wall time against the ideal 2.5 minutes, and the requests the engine refused.
 */
export async function benchRateLimit(): Promise<BenchResult> {
  await ensureInputs()
  const data = resolve(DATA, 'sms-3000.csv')
  await writeRows(data, ROWS)
  const engine = await startSystemOneServer({
    expectKey: 'bench',
    latencyMs: LATENCY_MS,
    limit: { requests: LIMIT_PER_MINUTE, windowMs: 60_000, retryAfter: RETRY_AFTER_S },
  })
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      ENGINE_URL: engine.url,
      ENGINE_API_KEY: 'bench',
      JUDGE_STORE: freshStore('rate-limit'),
      JUDGE_MAX_COST: '1000',
    }
    note(
      `judge run over ${count(ROWS)} new rows against ${LIMIT_PER_MINUTE} requests a minute (ideal ${(ROWS / LIMIT_PER_MINUTE).toFixed(1)} min)`,
    )
    const started = performance.now()
    const out = await runChild(['run', SPEC, '--data', data, '--json'], env)
    const seconds = (performance.now() - started) / 1000
    const [run] = JSON.parse(out.stdout) as { rows: number; requests: number; status: string }[]
    const answered = new Set(engine.answered.map((r) => r.body.state.message))
    if (out.code !== 0 || run.rows !== ROWS || answered.size !== ROWS || engine.answered.length !== ROWS) {
      throw new Error(
        `expected ${ROWS} rows each answered once in one invocation, got exit ${out.code}, ${JSON.stringify(run)}, ${engine.answered.length} answers: ${out.stderr.slice(0, 500)}`,
      )
    }
    const ideal = (ROWS / LIMIT_PER_MINUTE) * 60
    const refused = engine.refused()
    return {
      bench: 'rate-limit',
      bar: `judge run of ${count(ROWS)} new rows against ${count(LIMIT_PER_MINUTE)} requests a minute: one invocation, each row answered once, within ${Math.round((BAR_RATIO - 1) * 100)}% of the ideal, at most ${BAR_REFUSED} refused`,
      figure: `${(seconds / 60).toFixed(2)} min (${seconds.toFixed(1)} s) wall, ${refused} requests refused (429), exit 0, ${count(engine.answered.length)} answered for ${count(ROWS)} rows`,
      reference: `ideal ${(ideal / 60).toFixed(1)} min (${count(ROWS)} / ${count(LIMIT_PER_MINUTE)} a minute)`,
      ratio: `${(seconds / ideal).toFixed(3)}× the ideal`,
      pass: seconds / ideal <= BAR_RATIO && refused <= BAR_REFUSED,
      details: [
        `ENGINE_RPM unset (System One's default, ${LIMIT_PER_MINUTE}); requests paced 2% under it; engine latency ${LATENCY_MS} ms; --concurrency 8`,
        `node src/cli.ts run ${SPEC} --data sms-3000.csv --json in a child process; the server (test/helpers/system-one-server.ts, sliding 60 s window) in the bench process`,
      ],
    }
  } finally {
    await engine.close()
  }
}

/** Writes `rows` distinct new SMS rows to `file`. */
export async function writeRows(file: string, rows: number): Promise<void> {
  const { messages } = sourceMessages()
  const seen = new Set<string>()
  const out = createWriteStream(file)
  out.write(
    stringify([
      ['id', 'message'],
      ...Array.from({ length: rows }, (_, i) => [String(i + 1), messageAt(messages, i, seen)]),
    ]),
  )
  out.end()
  await once(out, 'finish')
}

/** Runs `node src/cli.ts <args>` in the project folder with `env`, collecting its output. */
export function runChild(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--no-warnings', resolve(ROOT, 'src/cli.ts'), ...args], { cwd: PROJECT, env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  return new Promise((done, fail) => {
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

if (import.meta.main) report(await benchRateLimit())
