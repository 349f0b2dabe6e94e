/**
 * `judge run --batch` over 100,000 distinct rows (`sms-100k.csv`, three questions: 300,000
 * requests) against a local server speaking OpenAI's files and batches (test/helpers/openai-server.ts),
 * the judge command of a clone (`node bin/judge.js`) in a child process started by a shell: its wall
 * time outside the provider's wait, its peak memory, and the requests per batch. The server ends each
 * batch at its first poll and the CLI polls every JUDGE_BATCH_POLL_MS (10 ms), so the wait is the
 * server writing the batches' output files; it is measured (from the first poll to the first download
 * of an output file) and reported apart. `--rows N` takes the first N rows.
 */
import { createReadStream, createWriteStream, mkdtempSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { startOpenAiServer } from '../test/helpers/openai-server.ts'
import { count, freshStore, report, ROOT, runMeasured, SPEC, type MeasuredRun } from './common.ts'
import { ensureInputs, SPEC_YAML } from './generate.ts'

/** The aim run-memory.ts holds a million-row run to, which the peak is set beside. */
const AIM_MB = 150
const ROWS = Number(process.argv[process.argv.indexOf('--rows') + 1]) || 100_000
const POLL_MS = 10

/** The first `rows` rows of the 100,000-row input, in a folder of their own with the spec. */
async function project(rows: number): Promise<string> {
  const { rows100k } = await ensureInputs()
  const dir = mkdtempSync(join(tmpdir(), 'judge-batch-lane-'))
  writeFileSync(join(dir, SPEC), SPEC_YAML)
  const out = createWriteStream(join(dir, 'rows.csv'))
  let n = -1
  for await (const line of createInterface({ input: createReadStream(rows100k) })) {
    if (n++ >= rows) break
    if (!out.write(line + '\n')) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return dir
}

/** `judge run --batch` under report-rss.js (run by a shell, so that its maxRSS is its own), timed. */
function runChild(dir: string, env: Record<string, string>): Promise<MeasuredRun> {
  const judge = [resolve(ROOT, 'bin/judge.js'), 'run', SPEC, '--data', 'rows.csv', '--batch', '--json']
  return runMeasured(judge, { cwd: dir, env })
}

const dir = await project(ROWS)
// Each request's arrival, on this process's clock: the wait runs from the first poll to the first download.
const arrivals: { path: string; method: string; at: number }[] = []
const engine = await startOpenAiServer({
  reply: (request) => {
    arrivals.push({ path: request.path, method: request.method, at: performance.now() })
    return undefined
  },
})
const isPoll = (a: (typeof arrivals)[number]) => a.method === 'GET' && /^\/v1\/batches\/[^/?]+$/.test(a.path)
const env = {
  ENGINE: 'openai',
  ENGINE_URL: engine.url,
  ENGINE_MODEL: 'qwen2.5-7b-instruct',
  JUDGE_BATCH_POLL_MS: String(POLL_MS),
  JUDGE_STORE: freshStore('batch-lane'),
}
// A run that ends on an engine error (a download on a keep-alive socket the server closed while
// the command was storing the previous batch's answers) is run again, as a user would: it collects.
const runs: MeasuredRun[] = []
const waits: number[] = []
for (let i = 0; i < 3; i++) {
  const from = arrivals.length
  const run = await runChild(dir, env)
  runs.push(run)
  const mine = arrivals.slice(from)
  const firstPoll = mine.find(isPoll)
  const firstDownload = mine.find((a) => /^\/v1\/files\/[^/]+\/content$/.test(a.path))
  waits.push(firstPoll && firstDownload ? (firstDownload.at - firstPoll.at) / 1000 : 0)
  if (run.code === 0) break
  if (!/could not reach the engine/.test(run.stderr))
    throw new Error(`judge run --batch exited ${run.code}: ${run.stderr.slice(-2000)}`)
}
await engine.close()
const last = runs.at(-1)!
if (last.code !== 0) throw new Error(`judge run --batch exited ${last.code}: ${last.stderr.slice(-2000)}`)
const [record] = JSON.parse(last.stdout)
const wall = runs.reduce((n, r) => n + r.seconds, 0)
const waitSeconds = waits.reduce((n, w) => n + w, 0)
const lines = engine.batches.batches.map((b) => engine.batches.files.get(b.inputFileId)!.text.split('\n').length - 1)
const uploads = arrivals.filter((a) => a.method === 'POST' && a.path === '/v1/files').length
const polls = arrivals.filter(isPoll)
const outside = wall - waitSeconds
const peakMb = Math.max(...runs.map((r) => r.peakKb)) / 1024
const failedAt = runs.slice(0, -1).map((r) => /could not reach the engine at (\S+?):? /.exec(r.stderr)?.[1] ?? '?')
report({
  bench: 'batch-lane',
  bar: 'none: a figure (the run completes with every row)',
  figure: `${outside.toFixed(1)} s outside the provider's wait, ${peakMb.toFixed(0)} MB peak RSS`,
  reference: `run-memory.ts's aim for a row-reading command, ${AIM_MB} MB`,
  ratio: `${(peakMb / AIM_MB).toFixed(2)} of that aim`,
  pass: record.status === 'complete' && record.rows === ROWS,
  details: [
    `rows ${count(record.rows)}, status ${record.status}; answers landed by the last invocation ${count(record.asked)}`,
    `invocations ${runs.length}${failedAt.length === 0 ? '' : ` (each but the last ended on a closed socket, at ${failedAt.join(', ')}; the same command again collected)`}`,
    `wall ${wall.toFixed(1)} s: ${outside.toFixed(1)} s outside the wait, ` +
      `${waitSeconds.toFixed(1)} s waiting (first poll to first download: the server writing the output files)`,
    `CPU of the command ${runs.reduce((n, r) => n + r.cpuSeconds, 0).toFixed(1)} s`,
    `batches created ${lines.length}, uploads ${uploads}, polls ${polls.length}, ` +
      `lines per batch ${lines.map(count).join(', ')} (${count(lines.reduce((a, b) => a + b, 0))} requests)`,
  ],
})
