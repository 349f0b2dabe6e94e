import { existsSync, mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { DATA, PROJECT, ROOT, SPEC, count, note } from './common.ts'

const SHARED = '/work/shared/data/sms-spam/sms.tsv'
const FALLBACK = resolve(ROOT, 'examples/sms/messages.csv')

/**
 * The generated data files, by size: every row of each is a distinct state, but in
 * `sms-100k-repeated.csv`, the messages in turn as they are (5,171 distinct texts, the rest repeats).
 */
export const INPUTS = {
  rows1600: resolve(DATA, 'sms-1600.csv'),
  rows100k: resolve(DATA, 'sms-100k.csv'),
  rows1m: resolve(DATA, 'sms-1m.csv'),
  repeated100k: resolve(DATA, 'sms-100k-repeated.csv'),
} as const

const SIZES: Readonly<Record<keyof typeof INPUTS, number>> = {
  rows1600: 1_600,
  rows100k: 100_000,
  rows1m: 1_000_000,
  repeated100k: 100_000,
}

// Bumped whenever the generated files change shape, so that stale inputs are rebuilt.
const VERSION = 2

/** The three questions of examples/sms/spam.judge.yaml, without its key and data files. */
export const SPEC_YAML = readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8')
  .split('\n')
  .filter((line) => !/^(key|data|unsure_below|min_accuracy):/.test(line))
  .join('\n')

/** The real messages the inputs are made of: the shared collection, else the example's subset. */
export function sourceMessages(): { messages: string[]; source: string } {
  if (existsSync(SHARED)) {
    // Tab-separated lines, not quoted CSV: the texts hold bare double quotes.
    const messages = readFileSync(SHARED, 'utf8')
      .split('\n')
      .filter((l) => l.includes('\t'))
      .map((l) => l.slice(l.indexOf('\t') + 1))
    return { messages, source: SHARED }
  }
  const rows = parse(readFileSync(FALLBACK), { columns: true }) as { message: string }[]
  return { messages: rows.map((r) => r.message), source: FALLBACK }
}

/**
 * The message of row `i`: the messages in turn, each text as it is the first time it appears and
 * with a counter appended after that, so that every row of a file is a distinct state (the worst
 * case for the cache and for the planner's memory).
 */
export function messageAt(messages: readonly string[], i: number, seen: Set<string>): string {
  const text = messages[i % messages.length]
  if (!seen.has(text)) {
    seen.add(text)
    return text
  }
  return `${text} #${i}`
}

async function writeCsv(file: string, rows: number, messages: readonly string[], repeat: boolean): Promise<void> {
  const out = createWriteStream(file)
  const seen = new Set<string>()
  out.write('id,message\n')
  const batch = 10_000
  for (let start = 0; start < rows; start += batch) {
    const chunk: string[][] = []
    for (let i = start; i < Math.min(rows, start + batch); i++)
      chunk.push([String(i + 1), repeat ? messages[i % messages.length] : messageAt(messages, i, seen)])
    if (!out.write(stringify(chunk))) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}

/** Writes the spec and any data file that is missing or stale; `force` rewrites them all. */
export async function ensureInputs(force = false): Promise<typeof INPUTS> {
  mkdirSync(PROJECT, { recursive: true })
  writeFileSync(resolve(PROJECT, SPEC), SPEC_YAML)
  const manifest = resolve(DATA, 'inputs.json')
  const current = existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === VERSION
  const stale = (Object.keys(INPUTS) as (keyof typeof INPUTS)[]).filter(
    (k) => force || !current || !existsSync(INPUTS[k]),
  )
  if (stale.length === 0) return INPUTS
  const { messages, source } = sourceMessages()
  for (const key of stale) {
    note(`writing ${count(SIZES[key])} rows from ${messages.length} messages of ${source} to ${INPUTS[key]}`)
    await writeCsv(INPUTS[key], SIZES[key], messages, key === 'repeated100k')
  }
  writeFileSync(manifest, JSON.stringify({ version: VERSION, source }) + '\n')
  return INPUTS
}

if (import.meta.main) {
  const started = performance.now()
  await ensureInputs(process.argv.includes('--force'))
  process.stdout.write(`inputs ready in ${DATA} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`)
}
