import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { SCHEMA_VERSION } from '../src/adapters/sqlite/sqlite-schema.ts'
import { loadProject } from '../src/adapters/files/spec-files.ts'
import type { State } from '../src/core/types.ts'
import { startSystemOneServer } from '../test/helpers/system-one-server.ts'
import { buildCachedStore } from './build-store.ts'
import { DATA, PROJECT, ROOT, SPEC, count, freshStore, note, report, type BenchResult } from './common.ts'
import { ensureInputs, messageAt, sourceMessages } from './generate.ts'

const BAR_MB = 300
const MODEL = 'jev-1.13.0'
const ROWS = 1_000_000
/** One row in this many is left out of the store, so that the run also asks the engine. */
const UNCACHED_EVERY = 100
// Bumped when the store built here changes shape; a store built by this version is reused.
const BUILD = 1

const BASE = resolve(DATA, 'stores', 'run-memory-base.sqlite')

/**
 * A 1,000,000-row CSV of distinct states streamed through `node src/cli.ts run` in a child
 * process: 99% of the states cached beforehand, the other 10,000 asked of a local server speaking
 * System One's wire format. Peak memory is the child's own maximum resident set size at exit
 * (process.resourceUsage().maxRSS, through a preloaded module), checked against VmHWM polled from
 * /proc while it runs.
 */
export async function benchRunMemory(rebuild = false): Promise<BenchResult> {
  const inputs = await ensureInputs()
  ensureBase(rebuild)
  const store = freshStore('run-memory')
  copyFileSync(BASE, store)
  const engine = await startSystemOneServer()
  try {
    const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'bench-key', ENGINE_RPM: '0', ENGINE_MODEL: MODEL, JUDGE_STORE: store, JUDGE_MAX_COST: '1000' }
    note(`judge run over ${count(ROWS)} rows in a child process`)
    const child = await runChild(inputs.rows1m, env)
    const [run] = JSON.parse(child.stdout) as { rows: number; asked: number; requests: number; status: string }[]
    if (run.rows !== ROWS || run.status !== 'complete') throw new Error(`unexpected run: ${child.stdout.slice(0, 500)}`)
    const peakMb = child.peakKb / 1024
    const states = runStatesSize(store)
    return {
      bench: 'run-memory',
      bar: `a 1,000,000-row CSV streamed through judge run: peak memory < ${BAR_MB} MB`,
      figure: `peak RSS ${peakMb.toFixed(0)} MB (VmHWM polled: ${(child.polledKb / 1024).toFixed(0)} MB)`,
      reference: `bar ${BAR_MB} MB`,
      ratio: `${((peakMb / BAR_MB) * 100).toFixed(1)}% of the bar`,
      pass: peakMb < BAR_MB,
      details: [
        `${count(run.rows)} distinct states, ${count(run.requests)} engine requests (${count(run.asked)} answers asked), ${child.seconds.toFixed(1)} s wall (${count(run.rows / child.seconds)} rows/s, plan pass included)`,
        `node src/cli.ts run ${SPEC} --data sms-1m.csv --json, engine: local System One wire-format server in the bench process`,
        `the run's states in _judge_run_states: ${count(states.rows)} rows, ${(states.bytes / 1024 / 1024).toFixed(1)} MB (${(states.bytes / states.rows).toFixed(1)} bytes a state, pages included)`,
      ],
    }
  } finally {
    await engine.close()
    // The working copy is as large as the base store (over 1 GB); the next run copies it again.
    for (const suffix of ['', '-wal', '-shm']) rmSync(store + suffix, { force: true })
  }
}

/** The rows and the bytes (its pages, from SQLite's dbstat) of the run-to-state table in a store. */
function runStatesSize(file: string): { rows: number; bytes: number } {
  const db = new DatabaseSync(file)
  try {
    const { rows } = db.prepare('SELECT count(*) AS rows FROM _judge_run_states').get() as { rows: number }
    const { bytes } = db.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name = '_judge_run_states'").get() as { bytes: number }
    return { rows, bytes }
  } finally {
    db.close()
  }
}

function ensureBase(rebuild: boolean): void {
  const marker = `${BASE}.json`
  const spec = loadProject(resolve(PROJECT, SPEC)).selected[0]
  const wanted = JSON.stringify({ build: BUILD, schema: SCHEMA_VERSION, rows: ROWS, every: UNCACHED_EVERY, spec: spec.hash })
  if (!rebuild && existsSync(BASE) && existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return note(`reusing ${BASE}`)
  for (const suffix of ['', '-wal', '-shm', '.json']) rmSync(BASE + suffix, { force: true })
  const { messages } = sourceMessages()
  const seen = new Set<string>()
  const states: State[] = []
  for (let i = 0; i < ROWS; i++) {
    const message = messageAt(messages, i, seen)
    if (i % UNCACHED_EVERY !== 0) states.push({ message })
  }
  note(`building ${count(states.length * spec.questions.length)} answers of ${count(states.length)} states`)
  const started = performance.now()
  buildCachedStore(BASE, spec, MODEL, states)
  note(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  writeFileSync(marker, wanted)
}

interface ChildRun {
  readonly stdout: string
  readonly peakKb: number
  readonly polledKb: number
  readonly seconds: number
}

function runChild(data: string, env: Record<string, string>): Promise<ChildRun> {
  const args = ['--no-warnings', '--import', resolve(import.meta.dirname, 'report-rss.ts'), resolve(ROOT, 'src/cli.ts'), 'run', SPEC, '--data', data, '--json']
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: PROJECT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let polledKb = 0
  child.stdout.on('data', (d: Buffer) => (stdout += d))
  child.stderr.on('data', (d: Buffer) => (stderr += d))
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (hwm) polledKb = Math.max(polledKb, Number(hwm[1]))
    } catch {
      // The child has exited between two polls.
    }
  }, 100)
  return new Promise((done, fail) => {
    child.on('error', fail)
    child.on('close', (code) => {
      clearInterval(poll)
      const peak = /peak-rss-kb (\d+)/.exec(stderr)
      if (code !== 0 || !peak) return fail(new Error(`judge run exited ${code}: ${stderr.slice(-2000)}`))
      done({ stdout, peakKb: Number(peak[1]), polledKb, seconds: (performance.now() - started) / 1000 })
    })
  })
}

if (import.meta.main) report(await benchRunMemory(process.argv.includes('--rebuild')))
