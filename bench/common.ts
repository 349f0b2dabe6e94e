import { spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..')

/** Generated inputs, stores and results; git-ignored, rebuilt on demand. */
export const DATA = resolve(import.meta.dirname, '.data')

/** The project folder the benches judge: one spec of three questions (see generate.ts). */
export const PROJECT = resolve(DATA, 'project')

/** The spec every bench judges, inside PROJECT. */
export const SPEC = 'spam.judge.yaml'

/** What one bench measured: its figure, the reference it is held against, and the verdict. */
export interface BenchResult {
  readonly bench: string
  /** The bar as the brief states it. */
  readonly bar: string
  /** The measured figure, e.g. "21,400 rows/s". */
  readonly figure: string
  /** The reference measured in the same run, e.g. "bare node:http 15,000 req/s". */
  readonly reference: string
  /** The figure over its reference or bar, as the bar reads it (1 = exactly at the bar). */
  readonly ratio: string
  readonly pass: boolean
  /** Further figures worth reporting (p99 latency, medians, sizes). */
  readonly details: readonly string[]
}

/** Prints a result for a reader, and saves it where run-all collects it. */
export function report(result: BenchResult): void {
  const lines = [
    `${result.bench}: ${result.pass ? 'PASS' : 'FAIL'}  (bar: ${result.bar})`,
    `  figure:    ${result.figure}`,
    `  reference: ${result.reference}`,
    `  ratio:     ${result.ratio}`,
    ...result.details.map((d) => `  ${d}`),
  ]
  process.stdout.write(lines.join('\n') + '\n')
  mkdirSync(resolve(DATA, 'results'), { recursive: true })
  writeFileSync(resolve(DATA, 'results', `${result.bench}.json`), JSON.stringify(result, null, 2) + '\n')
}

/** A whole number with thousands separators. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** Milliseconds with one decimal. */
export function ms(n: number): string {
  return `${n.toFixed(1)} ms`
}

/** The value at quantile `q` (0..1) of a list of numbers, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

/** Logs progress of a bench on stderr, so that stdout holds only the results. */
export function note(text: string): void {
  process.stderr.write(`  .. ${text}\n`)
}

/** The path of a new, empty store file under bench/.data/stores (any old one is deleted). */
export function freshStore(name: string): string {
  const dir = resolve(DATA, 'stores')
  mkdirSync(dir, { recursive: true })
  const file = resolve(dir, `${name}.sqlite`)
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  return file
}

/** A command run under report-rss.js: its exit code, its output, its wall time and the figures report-rss.js wrote. */
export interface MeasuredRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** Wall time, in seconds. */
  readonly seconds: number
  /** Whether report-rss.js wrote its figures; when not, each is 0. */
  readonly measured: boolean
  /** The child's maximum resident set size (getrusage), in kB. */
  readonly peakKb: number
  /** The child's own high-water mark of resident memory (/proc/self/status VmHWM at exit), in kB. */
  readonly hwmKb: number
  /** CPU time the child used (user and system), in seconds. */
  readonly cpuSeconds: number
}

/**
 * `node --no-warnings <nodeArgs> --import report-rss.js <command>` in `cwd` with `env` (and PATH), timed. Started by
 * a shell that forks it, not by this process: a child forked from this process would count this process's own
 * resident set (a store built, a megabyte of states) in its maxRSS, which Linux carries over from the forked copy
 * through exec. The shell is a few MB.
 */
export function runMeasured(
  command: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string>; readonly nodeArgs?: readonly string[] },
): Promise<MeasuredRun> {
  const args = ['--no-warnings', ...(options.nodeArgs ?? []), '--import', resolve(import.meta.dirname, 'report-rss.js')]
  const started = performance.now()
  const child = spawn('/bin/sh', ['-c', '"$@"; exit $?', 'sh', process.execPath, ...args, ...command], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d))
  child.stderr.on('data', (d: Buffer) => (stderr += d))
  return new Promise((done, fail) => {
    child.on('error', fail)
    child.on('close', (code) => {
      const peak = /peak-rss-kb (\d+) vmhwm-kb (\d+) cpu-ms (\d+)/.exec(stderr)
      done({
        code,
        stdout,
        stderr,
        seconds: (performance.now() - started) / 1000,
        measured: peak !== null,
        peakKb: Number(peak?.[1] ?? 0),
        hwmKb: Number(peak?.[2] ?? 0),
        cpuSeconds: Number(peak?.[3] ?? 0) / 1000,
      })
    })
  })
}
