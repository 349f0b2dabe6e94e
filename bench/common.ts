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
