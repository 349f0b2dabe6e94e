import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { SCHEMA_VERSION } from '../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { readConfig } from '../src/config.ts'
import { readDistribution } from '../src/core/judge/answer.ts'
import { loadProject } from '../src/adapters/files/spec-files.ts'
import { newRunId } from '../src/core/judge/judge-rows.ts'
import type { LabelCount, Spec, State } from '../src/core/types.ts'
import { createHandler } from '../src/http/handler.ts'
import { fakeDistribution } from '../test/helpers/fake-engine.ts'
import { buildCachedStore } from './build-store.ts'
import { DATA, count, ms, note, quantile, report, type BenchResult } from './common.ts'
import { messageAt, sourceMessages, SPEC_YAML } from './generate.ts'

const DRIFT_BAR_MS = 50
const REVIEW_BAR_MS = 300
/** The model the bench store's answers are kept under. */
export const MODEL = 'jev-1.13.0'
/** The server token the bench servers are started with. */
export const TOKEN = 'bench-token-0123456789'
/** 333,334 states of three questions: 1,000,002 answers. */
const STATES = 333_334
const RUNS = 50
const KEY_ROWS = 1_000
const WARMUP = 3
const SAMPLES = 20
// Bumped when the store built here changes shape; a store built by this version is reused.
const BUILD = 1

/** The folder served, holding the spec and its key. */
export const DIR = resolve(DATA, 'pages')
/** The bench store: 1,000,002 answers and 50 runs. */
export const STORE = resolve(DATA, 'stores', 'store-pages.sqlite')

/**
 * A store of 1,000,000 answers and 50 runs behind the real handler (createHandler, on a loopback
 * node:http server in this process): latency of GET /v1/drift and GET /review, median and p95 of
 * 20 sequential requests each after 3 warm-up requests; GET /v1/accuracy the same way, without a bar.
 */
export async function benchStorePages(rebuild = false): Promise<BenchResult> {
  const spec = writeProject()
  ensureStore(spec, rebuild)
  const { base, close } = await servePages()
  try {
    const drift = await timed(`${base}/v1/drift?path=spam.judge.yaml`, (body) => JSON.parse(body).is_spam.length === RUNS)
    const review = await timed(`${base}/review?path=spam.judge.yaml`, (body) => (body.match(/<form/g) ?? []).length >= 25)
    // No bar: the accuracy report reads every answer of each question once (counted by label, p, margin).
    const accuracy = await timed(`${base}/v1/accuracy?path=spam.judge.yaml`, (body) => JSON.parse(body).judgment === 'spam')
    return result(drift, review, accuracy)
  } finally {
    await close()
  }
}

/** The bench store's folder behind the real handler (createHandler) on a loopback node:http server in this process. */
export async function servePages(): Promise<{ readonly base: string; close(): Promise<void> }> {
  const config = readConfig({ JUDGE_PROJECTS: DIR, JUDGE_STORE: STORE, JUDGE_SERVER_TOKEN: TOKEN, ENGINE_MODEL: MODEL }, DIR)
  const handler = createHandler(config, { log: (line) => note(`server: ${line}`) })
  const server = createServer(handler)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
      await handler.close()
    },
  }
}

/** Writes the served spec (and an empty key until the store is built); returns it loaded. */
export function writeProject(): Spec {
  mkdirSync(DIR, { recursive: true })
  writeFileSync(resolve(DIR, 'spam.judge.yaml'), `${SPEC_YAML}key: spam.key.csv\nunsure_below: 0.2\n`)
  if (!existsSync(resolve(DIR, 'spam.key.csv'))) writeFileSync(resolve(DIR, 'spam.key.csv'), 'message,is_spam\n')
  return loadProject(resolve(DIR, 'spam.judge.yaml')).selected[0]
}

/** The first `n` states of the bench store, in the order they were stored. */
export function benchStates(n = STATES): State[] {
  const { messages } = sourceMessages()
  const seen = new Set<string>()
  return Array.from({ length: n }, (_, i) => ({ message: messageAt(messages, i, seen) }))
}

/** Builds the bench store unless one built by this version for this spec is there. */
export function ensureStore(spec: Spec, rebuild: boolean): void {
  const marker = `${STORE}.json`
  const wanted = JSON.stringify({ build: BUILD, schema: SCHEMA_VERSION, states: STATES, runs: RUNS, spec: spec.hash })
  if (!rebuild && existsSync(STORE) && existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return note(`reusing ${STORE}`)
  mkdirSync(resolve(DATA, 'stores'), { recursive: true })
  for (const suffix of ['', '-wal', '-shm', '.json']) rmSync(STORE + suffix, { force: true })
  const all = benchStates()
  note(`building ${count(all.length * spec.questions.length)} answers of ${count(all.length)} states`)
  const started = performance.now()
  buildCachedStore(STORE, spec, MODEL, all)
  writeKey(spec, all)
  recordRuns(spec)
  note(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  writeFileSync(marker, wanted)
}

/** An answer key of 1,000 of the states: every fifth one disagrees with the model on is_spam. */
function writeKey(spec: Spec, all: readonly State[]): void {
  const step = Math.floor(all.length / KEY_ROWS)
  const rows = Array.from({ length: KEY_ROWS }, (_, i) => {
    const state = all[i * step]
    const labels = spec.questions.map((q) => readDistribution(q, fakeDistribution(q, state)).label)
    if (i % 5 === 0) labels[0] = labels[0] === 'yes' ? 'no' : 'yes'
    return [state.message, ...labels]
  })
  writeFileSync(resolve(DIR, 'spam.key.csv'), stringify([['message', ...spec.questions.map((q) => q.name)], ...rows]))
}

/** Fifty runs a day apart, each of 20,000 rows, whose spam share wanders so that drift moves. */
function recordRuns(spec: Spec): void {
  const store = openSqliteStore(STORE)
  try {
    for (let i = 0; i < RUNS; i++) {
      const started = new Date(Date.UTC(2026, 0, 1 + i, 9))
      const runId = newRunId(started, () => (i + 0.5) / RUNS)
      const rows = 20_000
      const spam = Math.round(rows * (0.12 + 0.08 * Math.sin(i / 3)))
      const counts: LabelCount[] = [
        { run_id: runId, question: 'is_spam', label: 'yes', count: spam },
        { run_id: runId, question: 'is_spam', label: 'no', count: rows - spam },
        { run_id: runId, question: 'topic', label: 'personal', count: rows - spam },
        { run_id: runId, question: 'topic', label: 'promotion', count: spam },
        { run_id: runId, question: 'urgency', label: 'low', count: rows - spam },
        { run_id: runId, question: 'urgency', label: 'high', count: spam },
      ]
      const at = started.toISOString().replace(/Z$/, '')
      store.recordRun({
        run_id: runId, judgment: spec.name, spec_hash: spec.hash, git_sha: '', model: MODEL, rows, asked: 0, cost: 0,
        status: 'complete', started_at: at, finished_at: at, cached: rows * 3, requests: 0,
        command: 'run', source: 'bench.csv', source_hash: '', node: spec.name, reported_model: MODEL, states: rows,
        fingerprints: Object.fromEntries(spec.questions.map((q) => [q.name, q.fingerprint])),
      }, counts)
    }
  } finally {
    store.close()
  }
}

interface Timing {
  readonly median: number
  readonly p95: number
  readonly bytes: number
}

async function timed(url: string, valid: (body: string) => boolean): Promise<Timing> {
  const times: number[] = []
  let bytes = 0
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
    const body = await response.text()
    const elapsed = performance.now() - started
    if (response.status !== 200 || !valid(body)) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 500)}`)
    if (i >= WARMUP) times.push(elapsed)
    bytes = body.length
  }
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), bytes }
}

function result(drift: Timing, review: Timing, accuracy: Timing): BenchResult {
  const pass = drift.p95 < DRIFT_BAR_MS && review.p95 < REVIEW_BAR_MS
  return {
    bench: 'store-pages',
    bar: `store of 1,000,000 answers and ${RUNS} runs: GET /v1/drift < ${DRIFT_BAR_MS} ms, GET /review < ${REVIEW_BAR_MS} ms`,
    figure: `drift median ${ms(drift.median)}, p95 ${ms(drift.p95)}; review median ${ms(review.median)}, p95 ${ms(review.p95)}`,
    reference: `bars ${DRIFT_BAR_MS} ms and ${REVIEW_BAR_MS} ms, held against the p95`,
    ratio: `drift p95 at ${((drift.p95 / DRIFT_BAR_MS) * 100).toFixed(1)}% of its bar, review p95 at ${((review.p95 / REVIEW_BAR_MS) * 100).toFixed(1)}%`,
    pass,
    details: [
      `${count(STATES * 3)} answers, ${count(STATES)} states, ${RUNS} runs, a key of ${count(KEY_ROWS)} rows, unsure_below 0.2, audit 30`,
      `through createHandler on a loopback server, token on; ${SAMPLES} sequential requests each after ${WARMUP} warm-up`,
      `response sizes: drift ${count(drift.bytes)} B, review ${count(review.bytes)} B`,
      `GET /v1/accuracy (no bar): median ${ms(accuracy.median)}, p95 ${ms(accuracy.p95)}, ${count(accuracy.bytes)} B`,
    ],
  }
}

if (import.meta.main) report(await benchStorePages(process.argv.includes('--rebuild')))
