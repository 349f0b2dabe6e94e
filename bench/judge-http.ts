import { readFileSync, writeFileSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon'
import { createFakeEngine } from '../test/helpers/fake-engine.ts'
import { DATA, PROJECT, ROOT, SPEC, count, freshStore, ms, note, report, type BenchResult } from './common.ts'
import { ensureInputs } from './generate.ts'
import { runInProcess } from './in-process.ts'
import { startServerProcess, type ServerProcess } from './processes.ts'

const BAR = 0.6
const TOKEN = 'bench-token-0123456789'
const MODEL = 'jev-1.13.0'
/** Distinct cached rows the load cycles through, so that every request is a real lookup. */
const ROWS = 64

/** Load settings: the same for the judge server and the bare reference. */
export const LOAD = { connections: 32, warmupSeconds: 3, seconds: 10 } as const

interface Measured {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly bad: number
  /** Server CPU time (user and system) per request, in microseconds: steadier than req/s on a busy machine. */
  readonly cpuUs: number
}

/**
 * Cache-hit POST /v1/judge (token on, three questions) against a bare node:http server answering
 * a fixed JSON body of the same length: the same autocannon load on each, each server in its own
 * process, measured twice in the order A B B A so that drift of the machine's load cancels out.
 */
export async function benchJudgeHttp(): Promise<BenchResult> {
  const inputs = await ensureInputs()
  const store = freshStore('judge-http')
  const sample = resolve(DATA, 'http-rows.csv')
  writeFileSync(sample, readFileSync(inputs.rows1600, 'utf8').split('\n').slice(0, ROWS + 1).join('\n') + '\n')
  note(`caching ${ROWS} rows with the fake engine`)
  await runInProcess(sample, { JUDGE_STORE: store, ENGINE_MODEL: MODEL }, createFakeEngine())

  const judge = await startServerProcess(resolve(ROOT, 'src/main.ts'), {
    JUDGE_PROJECTS: PROJECT, JUDGE_STORE: store, JUDGE_SERVER_TOKEN: TOKEN, ENGINE_MODEL: MODEL, HOST: '127.0.0.1', PORT: '0',
  })
  let bare: ServerProcess | null = null
  try {
    const requests = judgeRequests(sample)
    const answer = await checkCached(judge.url, requests[0])
    bare = await startServerProcess(resolve(import.meta.dirname, 'bare-server.ts'), { BARE_BODY: answer })
    const targets = { judge: { url: judge.url, requests, child: judge.child }, bare: { url: bare.url, requests, child: bare.child } }
    for (const [name, target] of Object.entries(targets)) {
      note(`warming up ${name} for ${LOAD.warmupSeconds} s`)
      await load(target.url, target.requests, LOAD.warmupSeconds)
    }
    const rounds: Record<'judge' | 'bare', Measured[]> = { judge: [], bare: [] }
    for (const name of ['bare', 'judge', 'judge', 'bare'] as const) {
      note(`measuring ${name}: ${LOAD.connections} connections for ${LOAD.seconds} s`)
      const cpu = cpuMicros(targets[name].child)
      const result = await load(targets[name].url, targets[name].requests, LOAD.seconds)
      rounds[name].push(measured(result, cpuMicros(targets[name].child) - cpu))
    }
    return result(rounds.judge, rounds.bare)
  } finally {
    await bare?.stop()
    await judge.stop()
  }
}

function judgeRequests(sample: string): AutocannonRequest[] {
  const lines = readFileSync(sample, 'utf8').trim().split('\n').slice(1)
  const rows = lines.map((line) => {
    const comma = line.indexOf(',')
    const raw = line.slice(comma + 1)
    const message = raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw
    return { id: line.slice(0, comma), message }
  })
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }
  return rows.map((row) => ({ method: 'POST', path: '/v1/judge', headers, body: JSON.stringify({ path: SPEC, row }) }))
}

/** Asks every row once and checks each answer came from the store; returns the first answer's body. */
async function checkCached(url: string, first: AutocannonRequest): Promise<string> {
  const response = await fetch(url + first.path, { method: 'POST', headers: first.headers, body: first.body })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`POST /v1/judge answered ${response.status}: ${text}`)
  const answers = Object.values(JSON.parse(text) as Record<string, { cached: boolean }>)
  if (answers.length !== 3 || !answers.every((a) => a.cached)) throw new Error(`expected three cached answers, got ${text}`)
  return text
}

function load(url: string, requests: readonly AutocannonRequest[], seconds: number): Promise<AutocannonResult> {
  return autocannon({ url, connections: LOAD.connections, duration: seconds, requests, timeout: 10 })
}

function measured(r: AutocannonResult, cpu: number): Measured {
  return { rps: r['2xx'] / r.duration, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts, cpuUs: cpu / r['2xx'] }
}

/** CPU time a child process has used so far (user and system), in microseconds, from /proc. */
function cpuMicros(child: ChildProcess): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name, in clock ticks.
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / CLOCK_TICKS)
}

// Linux reports /proc CPU times in USER_HZ, 100 on every mainstream architecture.
const CLOCK_TICKS = 100

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length
}

function result(judge: readonly Measured[], bare: readonly Measured[]): BenchResult {
  const judgeRps = mean(judge.map((m) => m.rps))
  const bareRps = mean(bare.map((m) => m.rps))
  const ratio = judgeRps / bareRps
  const bad = judge.reduce((n, m) => n + m.bad, 0) + bare.reduce((n, m) => n + m.bad, 0)
  return {
    bench: 'judge-http',
    bar: `cache-hit POST /v1/judge (token, 3 questions) >= ${BAR * 100}% of bare node:http req/s`,
    figure: `${count(judgeRps)} req/s, p99 ${ms(Math.max(...judge.map((m) => m.p99)))} (p50 ${ms(mean(judge.map((m) => m.p50)))})`,
    reference: `bare node:http ${count(bareRps)} req/s, p99 ${ms(Math.max(...bare.map((m) => m.p99)))}`,
    ratio: `${(ratio * 100).toFixed(1)}% of bare (bar ${BAR * 100}%)`,
    pass: ratio >= BAR && bad === 0,
    details: [
      `autocannon, ${LOAD.connections} connections, ${LOAD.seconds} s per round after ${LOAD.warmupSeconds} s warm-up, rounds bare/judge/judge/bare`,
      `per round req/s: judge ${judge.map((m) => count(m.rps)).join(', ')}; bare ${bare.map((m) => count(m.rps)).join(', ')}`,
      `server CPU per request: judge ${mean(judge.map((m) => m.cpuUs)).toFixed(0)} µs, bare ${mean(bare.map((m) => m.cpuUs)).toFixed(0)} µs (60% of bare's throughput needs judge <= ${(mean(bare.map((m) => m.cpuUs)) / BAR).toFixed(0)} µs when both are CPU-bound)`,
      `non-2xx, errors and timeouts: ${bad}`,
    ],
  }
}

if (import.meta.main) report(await benchJudgeHttp())
