import { DatabaseSync } from 'node:sqlite'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { RUN_PAGE_SIZE } from '../src/app/run-detail.ts'
import { stateHash } from '../src/core/judge/state.ts'
import type { Spec } from '../src/core/types.ts'
import { count, ms, quantile, report, type BenchResult } from './common.ts'
import { benchStates, ensureStore, MODEL, servePages, STORE, TOKEN, writeProject } from './store-pages.ts'

const BAR_MS = 300
/** The run's distinct states, each on two rows. */
const STATES = 10_000
const RUN_ID = '20260301T090000Z-runpag'
const WARMUP = 3

/**
 * On the store of `store-pages.ts` (1,000,002 answers, 50 runs), a run of 20,000 rows over 10,000
 * distinct states, recorded through the adapter as `judge run` records one; then every page of its
 * run page, HTML and JSON, fetched in turn from the real handler on a loopback server: ms per page.
 */
export async function benchRunPage(rebuild = false): Promise<BenchResult> {
  const spec = writeProject()
  await ensureStore(spec, rebuild)
  recordRun(spec)
  const { base, close } = await servePages()
  try {
    const pages = Math.ceil(STATES / RUN_PAGE_SIZE)
    const html = await pageThrough(
      pages,
      (page) => `${base}/runs/${RUN_ID}?path=spam.judge.yaml&page=${page}`,
      (body) => (body.match(/<tr><td><code class="hash">/g) ?? []).length,
    )
    const json = await pageThrough(
      pages,
      (page) => `${base}/v1/runs/${RUN_ID}?path=spam.judge.yaml&page=${page}`,
      (body) =>
        JSON.parse(body).rows.filter((r: { answers: Record<string, unknown> }) =>
          Object.values(r.answers).every((a) => a !== null),
        ).length,
    )
    return result(pages, html, json)
  } finally {
    await close()
    removeRun()
  }
}

/** Records the run (again, replacing it) with the first 10,000 states of the store, two rows each. */
function recordRun(spec: Spec): void {
  const store = openSqliteStore(STORE)
  try {
    const states = benchStates(STATES).map((state) => ({ stateHash: stateHash(state), rows: 2 }))
    const at = '2026-03-01T09:00:00.000'
    const labels = spec.questions.flatMap((q) =>
      q.labels.map((label, i) => ({ run_id: RUN_ID, question: q.name, label, count: i === 0 ? STATES * 2 : 0 })),
    )
    store.recordRun(
      {
        run_id: RUN_ID,
        judgment: spec.name,
        spec_hash: spec.hash,
        git_sha: '',
        model: MODEL,
        rows: STATES * 2,
        asked: 0,
        cost: 0,
        status: 'complete',
        started_at: at,
        finished_at: at,
        cached: STATES * 2 * spec.questions.length,
        requests: 0,
        command: 'run',
        source: 'bench.csv',
        source_hash: '',
        node: spec.name,
        reported_model: MODEL,
        states: STATES,
        fingerprints: Object.fromEntries(spec.questions.map((q) => [q.name, q.fingerprint])),
      },
      labels,
      states,
    )
  } finally {
    store.close()
  }
}

/** Takes the run out again (its label counts and states go with it), leaving the store as store-pages.ts built it. */
function removeRun(): void {
  const db = new DatabaseSync(STORE)
  try {
    db.exec('PRAGMA foreign_keys = ON')
    db.prepare('DELETE FROM _judge_runs WHERE run_id = ?').run(RUN_ID)
  } finally {
    db.close()
  }
}

interface Paging {
  readonly median: number
  readonly p95: number
  readonly max: number
  readonly bytes: number
}

/** Fetches pages 1…`pages` in turn (after a few warm-up fetches of page 1); each must hold a full page of answered rows. */
async function pageThrough(
  pages: number,
  url: (page: number) => string,
  answered: (body: string) => number,
): Promise<Paging> {
  const times: number[] = []
  let bytes = 0
  for (let i = 1 - WARMUP; i <= pages; i++) {
    const page = Math.max(1, i)
    const started = performance.now()
    const response = await fetch(url(page), { headers: { authorization: `Bearer ${TOKEN}` } })
    const body = await response.text()
    const elapsed = performance.now() - started
    const rows = response.status === 200 ? answered(body) : 0
    if (rows !== RUN_PAGE_SIZE)
      throw new Error(`${url(page)} answered ${response.status} with ${rows} answered rows: ${body.slice(0, 300)}`)
    if (i >= 1) times.push(elapsed)
    bytes = Math.max(bytes, body.length)
  }
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), max: Math.max(...times), bytes }
}

function result(pages: number, html: Paging, json: Paging): BenchResult {
  return {
    bench: 'run-page',
    bar: `a run of ${count(STATES)} distinct states: every page of its run page < ${BAR_MS} ms`,
    figure: `HTML median ${ms(html.median)}, p95 ${ms(html.p95)}, max ${ms(html.max)}; JSON median ${ms(json.median)}, max ${ms(json.max)}`,
    reference: `the bar, ${BAR_MS} ms, held against the slowest page`,
    ratio: `slowest HTML page at ${((html.max / BAR_MS) * 100).toFixed(1)}% of the bar`,
    pass: html.max < BAR_MS && json.max < BAR_MS,
    details: [
      `${count(pages)} pages of ${RUN_PAGE_SIZE} rows each, HTML (/runs/{run_id}) then JSON (/v1/runs/{run_id}), fetched in turn after ${WARMUP} warm-up fetches`,
      `the store of store-pages.ts: 1,000,002 answers, 50 runs, plus this run's ${count(STATES)} states`,
      `largest page: HTML ${count(html.bytes)} B, JSON ${count(json.bytes)} B; JSON p95 ${ms(json.p95)}`,
    ],
  }
}

if (import.meta.main) report(await benchRunPage(process.argv.includes('--rebuild')))
