import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
import { DATA, ROOT, count, freshStore, ms, note, quantile, report, type BenchResult } from './common.ts'
import { KEPT, keepForCompare, writeCandidate, writeReviews } from './store-fixtures.ts'
import { messageAt, sourceMessages, SPEC_YAML } from './generate.ts'

/** Bars held against the p95: drift, the accuracy figures and the home page 50 ms, the comparison 100 ms, the review queue 300 ms; `judge test` 1 s. */
const BAR_MS = {
  drift: 50,
  review: 300,
  accuracy: 50,
  accuracyPage: 50,
  home: 50,
  compare: 100,
  comparePage: 100,
  judgeTest: 1000,
} as const
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
const CLI_SAMPLES = 5
// Bumped when the store built here changes shape; a store built by this version is reused.
const BUILD = 2

/** The folder served, holding the spec and its key. */
export const DIR = resolve(DATA, 'pages')
/** The bench store: 1,000,002 answers and 50 runs. */
export const STORE = resolve(DATA, 'stores', 'store-pages.sqlite')

const PAGES = {
  drift: { url: '/v1/drift?path=spam.judge.yaml', valid: (body: string) => JSON.parse(body).is_spam.length === RUNS },
  review: { url: '/review?path=spam.judge.yaml', valid: (body: string) => (body.match(/<form/g) ?? []).length >= 25 },
  accuracy: {
    url: '/v1/accuracy?path=spam.judge.yaml',
    valid: (body: string) => Object.keys(JSON.parse(body).questions.is_spam.agreement.reviewers).length === 2,
  },
  accuracyPage: { url: '/accuracy?path=spam.judge.yaml', valid: (body: string) => body.includes('Agreement') },
  home: {
    url: '/',
    valid: (body: string) => body.includes('333334 answers') && body.includes('<code>candidates</code>'),
  },
  compare: {
    url: '/v1/compare?path=spam.judge.yaml&candidate=candidates/spam.judge.yaml',
    valid: (body: string) => JSON.parse(body).compared === KEPT,
  },
  comparePage: {
    url: '/compare?path=spam.judge.yaml&candidate=candidates/spam.judge.yaml',
    valid: (body: string) => body.includes('is_spam'),
  },
} as const

type Page = keyof typeof PAGES

/**
 * A store of 1,000,000 answers, 50 runs, 450 verdicts of two reviewers and 20,000 kept rows with a
 * candidate's answers, behind the real handler (createHandler, on a loopback node:http server in
 * this process): each page's latency, median and p95 of 20 sequential requests after 3 warm-up
 * requests, in one run; and `judge test` on the same store, 5 runs of the CLI as a child process.
 */
export async function benchStorePages(rebuild = false): Promise<BenchResult> {
  const spec = writeProject()
  await ensureStore(spec, rebuild)
  const { base, close } = await servePages()
  const timings = {} as Record<Page, Timing>
  try {
    for (const [page, { url, valid }] of Object.entries(PAGES) as [Page, (typeof PAGES)[Page]][])
      timings[page] = await timed(`${base}${url}`, valid)
  } finally {
    await close()
  }
  return result(timings, await judgeTest())
}

/** The bench store's folder behind the real handler (createHandler) on a loopback node:http server in this process. */
export async function servePages(): Promise<{ readonly base: string; close(): Promise<void> }> {
  const config = readConfig(
    { JUDGE_PROJECTS: DIR, JUDGE_STORE: STORE, JUDGE_SERVER_TOKEN: TOKEN, ENGINE_MODEL: MODEL },
    DIR,
  )
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
export async function ensureStore(spec: Spec, rebuild: boolean): Promise<void> {
  const marker = `${STORE}.json`
  const wanted = JSON.stringify({ build: BUILD, schema: SCHEMA_VERSION, states: STATES, runs: RUNS, spec: spec.hash })
  if (!rebuild && existsSync(STORE) && existsSync(marker) && readFileSync(marker, 'utf8') === wanted) {
    writeCandidate(DIR)
    note(`reusing ${STORE}`)
    // The reviews file is written after the store, from its queue: a run stopped between the two leaves none.
    if (!existsSync(spec.reviews)) note(`${await writeReviews(DIR, STORE, MODEL)} verdicts written`)
    return
  }
  mkdirSync(resolve(DATA, 'stores'), { recursive: true })
  for (const suffix of ['', '-wal', '-shm', '.json']) rmSync(STORE + suffix, { force: true })
  const all = benchStates()
  note(`building ${count(all.length * spec.questions.length)} answers of ${count(all.length)} states`)
  const started = performance.now()
  buildCachedStore(STORE, spec, MODEL, all)
  writeKey(spec, all)
  recordRuns(spec)
  keepForCompare(STORE, spec, writeCandidate(DIR), MODEL, all)
  note(`${await writeReviews(DIR, STORE, MODEL)} verdicts written`)
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
      store.recordRun(
        {
          run_id: runId,
          judgment: spec.name,
          spec_hash: spec.hash,
          git_sha: '',
          model: MODEL,
          rows,
          asked: 0,
          cost: 0,
          status: 'complete',
          started_at: at,
          finished_at: at,
          cached: rows * 3,
          requests: 0,
          command: 'run',
          source: 'bench.csv',
          source_hash: '',
          node: spec.name,
          reported_model: MODEL,
          states: rows,
          fingerprints: Object.fromEntries(spec.questions.map((q) => [q.name, q.fingerprint])),
        },
        counts,
      )
    }
  } finally {
    store.close()
  }
}

interface Timing {
  readonly median: number
  readonly p95: number
  readonly bytes: number
  /** The first request's time, warm-up included: for the comparison, the rows gathered from the store. */
  readonly first?: number
}

async function timed(url: string, valid: (body: string) => boolean): Promise<Timing> {
  const times: number[] = []
  let bytes = 0
  let first = 0
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
    const body = await response.text()
    const elapsed = performance.now() - started
    if (response.status !== 200 || !valid(body))
      throw new Error(`${url} answered ${response.status}: ${body.slice(0, 500)}`)
    if (i >= WARMUP) times.push(elapsed)
    if (i === 0) first = elapsed
    bytes = body.length
  }
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), bytes, first }
}

/**
 * `judge test` on the bench store: wall time of the judge command as a clone runs it
 * (bin/judge.js), start to exit, in a child process; the run before the timed ones leaves its
 * modules in the compile cache. It records a run each time, so it runs on a copy: the bench store
 * stays as built.
 */
async function judgeTest(): Promise<Timing> {
  const store = freshStore('store-pages-test')
  copyFileSync(STORE, store)
  const times: number[] = []
  let bytes = 0
  for (let i = 0; i < CLI_SAMPLES + 1; i++) {
    const started = performance.now()
    const child = spawnSync(
      process.execPath,
      [resolve(ROOT, 'bin/judge.js'), 'test', resolve(DIR, 'spam.judge.yaml')],
      {
        env: { ...process.env, JUDGE_STORE: store, ENGINE_MODEL: MODEL },
        encoding: 'utf8',
      },
    )
    const elapsed = performance.now() - started
    if (child.status !== 0 || !child.stdout.includes('is_spam'))
      throw new Error(`judge test exited ${child.status}: ${child.stderr.slice(0, 500)}`)
    if (i > 0) times.push(elapsed)
    bytes = child.stdout.length
  }
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), bytes }
}

const LABEL: Record<Page | 'judgeTest', string> = {
  drift: 'GET /v1/drift',
  review: 'GET /review (allocated queue)',
  accuracy: 'GET /v1/accuracy (agreement included)',
  accuracyPage: 'GET /accuracy',
  home: 'GET /',
  compare: 'GET /v1/compare (20,000 kept rows)',
  comparePage: 'GET /compare',
  judgeTest: '`judge test` (CLI, start to exit)',
}

function result(pages: Record<Page, Timing>, test: Timing): BenchResult {
  const all = { ...pages, judgeTest: test }
  const barred = Object.keys(BAR_MS) as (keyof typeof BAR_MS)[]
  const line = (name: keyof typeof all) =>
    `${LABEL[name]}: median ${ms(all[name].median)}, p95 ${ms(all[name].p95)}${name in BAR_MS ? ` (bar ${BAR_MS[name as keyof typeof BAR_MS]} ms)` : ' (no bar)'}, ${count(all[name].bytes)} B${all[name].first === undefined ? '' : `, first request ${ms(all[name].first!)}`}`
  return {
    bench: 'store-pages',
    bar: `store of 1,000,000 answers and ${RUNS} runs: drift, accuracy, /accuracy and / < 50 ms, /v1/compare and /compare < 100 ms, /review < 300 ms, judge test < 1 s (p95)`,
    figure: barred.map((n) => `${n} p95 ${ms(all[n].p95)}`).join('; '),
    reference: 'the bars, held against the p95',
    ratio: barred.map((n) => `${n} ${((all[n].p95 / BAR_MS[n]) * 100).toFixed(0)}%`).join(', '),
    pass: barred.every((n) => all[n].p95 < BAR_MS[n]),
    details: [
      `${count(STATES * 3)} answers, ${count(STATES)} states, ${RUNS} runs, a key of ${count(KEY_ROWS)} rows, 450 verdicts of 2 reviewers, ${count(KEPT)} kept rows with a candidate's answers, unsure_below 0.2, audit 30, allocation neyman`,
      `pages through createHandler on a loopback server, token on; ${SAMPLES} sequential requests each after ${WARMUP} warm-up; judge test ${CLI_SAMPLES} runs after 1`,
      ...(Object.keys(all) as (keyof typeof all)[]).map(line),
    ],
  }
}

if (import.meta.main) report(await benchStorePages(process.argv.includes('--rebuild')))
