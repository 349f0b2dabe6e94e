import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, totalmem } from 'node:os'
import { resolve } from 'node:path'
import { DATA, type BenchResult } from './common.ts'
import { ensureInputs } from './generate.ts'

/** Every bench, in the order they run; each is also `node bench/<name>.ts` on its own. */
export const BENCHES = [
  'judge-http',
  'run-cached',
  'run-repeated',
  'run-latency',
  'store-pages',
  'run-page',
  'run-memory',
  'batch-lane',
  'jury-fit',
  'soak',
] as const

/** The machine the figures were taken on. */
export function machine(): string {
  const cpu =
    /model name\s*:\s*(.+)/.exec(existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '')?.[1] ??
    'unknown'
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
  return `${availableParallelism()} CPUs (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, load average ${load} at the start`
}

/** Arguments of a bench in the full run: shorter HTTP rounds, so that the whole run stays within 10 minutes. */
const ARGS: Readonly<Record<string, readonly string[]>> = { 'judge-http': ['--seconds', '6', '--few-rounds', '2'] }

function runBench(name: string): Promise<number | null> {
  const child = spawn(
    process.execPath,
    ['--no-warnings', resolve(import.meta.dirname, `${name}.ts`), ...(ARGS[name] ?? [])],
    { stdio: 'inherit' },
  )
  return new Promise((done, fail) => {
    child.on('error', fail)
    child.on('exit', (code) => done(code))
  })
}

function table(results: readonly (BenchResult | { bench: string; error: string })[]): string {
  const rows = results.map((r) =>
    'error' in r
      ? `| ${r.bench} | did not finish: ${r.error} | | | FAIL |`
      : `| ${r.bench} | ${r.figure} | ${r.reference} | ${r.ratio} | ${r.pass ? 'pass' : 'FAIL'} |`,
  )
  return ['| bench | figure | reference | ratio | bar |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
}

/** Runs every bench one after the other, each in its own process, and prints a summary table. */
export async function runAll(): Promise<boolean> {
  const started = performance.now()
  const header = machine()
  process.stdout.write(`${header}\n\n`)
  await ensureInputs()
  const results: (BenchResult | { bench: string; error: string })[] = []
  for (const name of BENCHES) {
    const file = resolve(DATA, 'results', `${name}.json`)
    rmSync(file, { force: true })
    process.stdout.write(`\n== ${name}\n`)
    const code = await runBench(name)
    results.push(
      existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as BenchResult)
        : { bench: name, error: `exit status ${code}` },
    )
  }
  const minutes = (performance.now() - started) / 60_000
  const summary = `${header}\n\n${table(results)}\n\nAll benches in ${minutes.toFixed(1)} minutes.\n`
  writeFileSync(resolve(DATA, 'results', 'summary.md'), summary)
  process.stdout.write(`\n${summary}`)
  return results.every((r) => 'pass' in r && r.pass)
}

if (import.meta.main) process.exitCode = (await runAll()) ? 0 : 1
