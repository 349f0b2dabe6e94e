import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { count, freshStore, note, PROJECT, report, ROOT, SPEC, type BenchResult } from './common.ts'
import { ensureInputs } from './generate.ts'

const BAR = 50_000
const ROUNDS = 5
const NODE = process.execPath

/** The preload that reports a process's CPU time at exit (kept across the CLI's restart of itself, as NODE_OPTIONS is). */
const REPORT = `--import=${pathToFileURL(resolve(ROOT, 'bench/report-rss.js')).href}`

/** Runs a command to its end; its wall time and CPU time in seconds, and its standard output. */
function timed(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ seconds: number; cpu: number; stdout: string }> {
  const started = performance.now()
  return new Promise((done, fail) => {
    const child = spawn(NODE, args, {
      cwd: PROJECT,
      env: { ...process.env, ...env, NODE_OPTIONS: REPORT },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let [stdout, stderr] = ['', '']
    child.stdout.on('data', (b: Buffer) => (stdout += b))
    child.stderr.on('data', (b: Buffer) => (stderr += b))
    child.on('error', fail)
    child.on('close', (code) => {
      const cpu = Number(/cpu-ms (\d+)/.exec(stderr)?.[1] ?? NaN) / 1000
      if (code === 0) done({ seconds: (performance.now() - started) / 1000, cpu, stdout })
      else fail(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))
    })
  })
}

/** A bare csv-parse pass over the file, columns by name as judge reads them: the floor of a run's reading. */
const PARSE_ONLY = `
import { createReadStream } from 'node:fs'
import { parse } from 'csv-parse'
let rows = 0
for await (const row of createReadStream(process.argv[1]).pipe(parse({ columns: true }))) if (row.message !== undefined) rows++
process.stdout.write(String(rows))
`

/**
 * \`judge run\` as a clone runs it (\`node bin/judge.js run\`, a child process) over 100,000 rows of
 * the SMS messages in turn, 5,171 distinct states and the rest repeats, every answer already in the
 * store: rows per second, against a bare csv-parse pass over the same file in the same run.
 */
export async function benchRunRepeated(): Promise<BenchResult> {
  const inputs = await ensureInputs()
  const env = {
    JUDGE_STORE: freshStore('run-repeated'),
    ENGINE: 'simulated',
    NODE_COMPILE_CACHE: resolve(ROOT, 'bench/.data/compile-cache'),
  }
  const run = ['bin/judge.js', 'run', SPEC, '--data', inputs.repeated100k, '--json'].map((a, i) =>
    i === 0 ? resolve(ROOT, a) : a,
  )
  note('warming the store: a first run with the simulated engine')
  await timed(run, env)
  const runs: { seconds: number; cpu: number }[] = []
  const parses: { seconds: number; cpu: number }[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const r = await timed(run, env)
    const [record] = JSON.parse(r.stdout) as { rows: number; asked: number }[]
    if (record.rows !== 100_000 || record.asked !== 0)
      throw new Error(`expected 100,000 rows all cached, got ${r.stdout}`)
    runs.push(r)
    const p = await timed(['--input-type=module', '-e', PARSE_ONLY, inputs.repeated100k], {})
    if (p.stdout !== '100000') throw new Error(`the csv-parse pass read ${p.stdout} rows`)
    parses.push(p)
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const [seconds, cpu] = [median(runs.map((r) => r.seconds)), median(runs.map((r) => r.cpu))]
  const [parseSeconds, parseCpu] = [median(parses.map((r) => r.seconds)), median(parses.map((r) => r.cpu))]
  const rate = 100_000 / seconds
  const list = (xs: { seconds: number; cpu: number }[]) =>
    xs.map((x) => `${x.seconds.toFixed(2)} (cpu ${x.cpu.toFixed(2)})`).join(', ')
  return {
    bench: 'run-repeated',
    bar: `judge run over 100,000 rows of 5,171 distinct states, all cached: >= ${count(BAR)} rows/s`,
    figure: `${count(rate)} rows/s (${seconds.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU: ${count(100_000 / cpu)} rows per CPU second; medians of ${ROUNDS}, process start and plan pass included)`,
    reference: `a bare csv-parse pass over the file: ${count(100_000 / parseSeconds)} rows/s (${parseSeconds.toFixed(2)} s wall, ${parseCpu.toFixed(2)} s CPU, process start included)`,
    ratio: `${(seconds / parseSeconds).toFixed(2)}x the csv-parse pass's wall time, ${(cpu / parseCpu).toFixed(2)}x its CPU time; ${(rate / BAR).toFixed(2)}x the bar`,
    pass: rate >= BAR,
    details: [`runs ${list(runs)} s; csv-parse ${list(parses)} s, interleaved`],
  }
}

if (import.meta.main) report(await benchRunRepeated())
