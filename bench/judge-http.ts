import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createFakeEngine } from '../test/helpers/fake-engine.ts'
import { DATA, ROOT, SPEC, count, ms, note, report, type BenchResult } from './common.ts'
import { ensureInputs, SPEC_YAML } from './generate.ts'
import { runInProcess } from './in-process.ts'
import { measureLoad, median, processTree, TOOL, type LoadRequests, type Measured } from './load.ts'
import { startServerProcess, type ServerProcess } from './processes.ts'

const BAR = 0.6
/** The p99 at 256 connections may be at most this many times the bare server's. */
const P99_BAR = 3
/** The judge server's token in the HTTP benches. */
export const TOKEN = 'bench-token-0123456789'
/** The model the cached answers are stored under. */
export const MODEL = 'jev-1.13.0'
/** Distinct cached rows the load cycles through, so that every request is a real lookup. */
const ROWS = 64

/**
 * The project the server judges, as the brief sets one up: the spec with its store beside it in
 * `.judge/store.sqlite`, found by the server's own lookup (no JUDGE_STORE).
 */
export const HTTP_PROJECT = resolve(DATA, 'http-project')

/** What to measure; `node bench/judge-http.ts --help` lists the flags. */
export interface HttpBenchOptions {
  /** Interleaved rounds per server at 32 connections with one worker (the bar's figure). */
  readonly rounds: number
  /** Rounds per server at 256 connections, and per worker count. */
  readonly fewRounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  /** Worker counts measured besides 1: 2 and every core. */
  readonly workers: readonly number[]
  /** Node flags for the judge server, e.g. --cpu-prof. */
  readonly nodeArgs: readonly string[]
}

/**
 * Cache-hit POST /v1/judge (token on, three questions) against a bare node:http server answering
 * the same body, each in its own process(es), driven by the same load tool with the same
 * requests. Rounds alternate between the two (bare, judge, judge, bare, …) so that a change in
 * the shared machine's load falls on both, and each figure is the median of its rounds.
 */
export async function benchJudgeHttp(options: HttpBenchOptions): Promise<BenchResult> {
  const requests = await prepare()
  const single = await measurePair(requests, 1, options, [
    [32, options.rounds],
    [256, options.fewRounds],
  ])
  const scaling: [number, Pair][] = [[1, single.get(32)!]]
  for (const workers of options.workers) {
    scaling.push([workers, (await measurePair(requests, workers, options, [[32, options.fewRounds]])).get(32)!])
  }
  return result(single.get(32)!, single.get(256)!, scaling, options)
}

/** Fills the store beside the spec with ROWS rows and returns the requests that ask for them. */
export async function prepare(): Promise<LoadRequests> {
  const inputs = await ensureInputs()
  mkdirSync(HTTP_PROJECT, { recursive: true })
  writeFileSync(resolve(HTTP_PROJECT, SPEC), SPEC_YAML)
  const store = resolve(HTTP_PROJECT, '.judge', 'store.sqlite')
  for (const suffix of ['', '-wal', '-shm']) rmSync(store + suffix, { force: true })
  const sample = resolve(DATA, 'http-rows.csv')
  writeFileSync(
    sample,
    readFileSync(inputs.rows1600, 'utf8')
      .split('\n')
      .slice(0, ROWS + 1)
      .join('\n') + '\n',
  )
  note(`caching ${ROWS} rows with the fake engine in ${store}`)
  // The same spec text as the bench project's, so the answers' keys are those the server looks up.
  await runInProcess(sample, { JUDGE_STORE: store, ENGINE_MODEL: MODEL }, createFakeEngine())
  const rows = readFileSync(sample, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const comma = line.indexOf(',')
      const raw = line.slice(comma + 1)
      return { id: line.slice(0, comma), message: raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw }
    })
  return { path: '/v1/judge', token: TOKEN, bodies: rows.map((row) => JSON.stringify({ path: SPEC, row })) }
}

/** The rounds of both servers at one connection count. */
interface Pair {
  readonly judge: readonly Measured[]
  readonly bare: readonly Measured[]
}

async function measurePair(
  requests: LoadRequests,
  workers: number,
  options: HttpBenchOptions,
  plan: readonly [connections: number, rounds: number][],
): Promise<Map<number, Pair>> {
  const judge = await startServerProcess(
    resolve(ROOT, 'src/main.ts'),
    {
      JUDGE_PROJECTS: HTTP_PROJECT,
      JUDGE_SERVER_TOKEN: TOKEN,
      ENGINE_MODEL: MODEL,
      HOST: '127.0.0.1',
      PORT: '0',
      JUDGE_WORKERS: String(workers),
      // The one load generator stands for many clients, as a proxy in front would.
      JUDGE_MAX_CONNECTIONS_PER_CLIENT: '1024',
    },
    { nodeArgs: options.nodeArgs },
  )
  let bare: ServerProcess | null = null
  try {
    const answer = await checkCached(judge.url, requests)
    bare = await startServerProcess(resolve(import.meta.dirname, 'bare-server.ts'), {
      BARE_BODY: answer,
      BARE_WORKERS: String(workers),
    })
    const targets = { judge, bare }
    for (const [name, target] of Object.entries(targets)) {
      note(`warming up ${name} (${workers} worker${workers === 1 ? '' : 's'}) for ${options.warmupSeconds} s`)
      await measureLoad(target.url, () => processTree(target.child.pid!), requests, 32, options.warmupSeconds)
    }
    const pairs = new Map<number, Pair>()
    for (const [connections, rounds] of plan) {
      const measured: Record<'judge' | 'bare', Measured[]> = { judge: [], bare: [] }
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 === 0 ? (['bare', 'judge'] as const) : (['judge', 'bare'] as const)) {
          note(
            `${name}, ${workers} worker${workers === 1 ? '' : 's'}: ${TOOL} -t1 -c${connections} -d${options.seconds}s, round ${round + 1} of ${rounds}`,
          )
          const target = targets[name]
          measured[name].push(
            await measureLoad(target.url, () => processTree(target.child.pid!), requests, connections, options.seconds),
          )
        }
      }
      pairs.set(connections, measured)
    }
    return pairs
  } finally {
    await bare?.stop()
    await judge.stop()
  }
}

/** Asks every row once and checks each answer came from the store; returns the first answer's body. */
async function checkCached(url: string, requests: LoadRequests): Promise<string> {
  let first = ''
  for (const body of requests.bodies) {
    const response = await fetch(url + requests.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${requests.token}` },
      body,
    })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`POST /v1/judge answered ${response.status}: ${text}`)
    const answers = Object.values(JSON.parse(text) as Record<string, { cached: boolean }>)
    if (answers.length !== 3 || !answers.every((a) => a.cached))
      throw new Error(`expected three cached answers, got ${text}`)
    first ||= text
  }
  return first
}

const rps = (ms: readonly Measured[]) => median(ms.map((m) => m.rps))
const p99 = (ms: readonly Measured[]) => median(ms.map((m) => m.p99))
const cpu = (ms: readonly Measured[]) => median(ms.map((m) => m.cpuUs))
/**
 * The ratio of a round: judge and bare measured one after the other, so that a change in the
 * shared machine's load from round to round falls on both. Its median is the bench's figure; the
 * ratio of the two servers' medians mixes rounds minutes apart, and moved by ±0.08 between runs.
 */
const roundRatios = (p: Pair) => p.judge.map((m, i) => m.rps / p.bare[i].rps)
const bad = (pairs: readonly Pair[]) => pairs.flatMap((p) => [...p.judge, ...p.bare]).reduce((n, m) => n + m.bad, 0)

function result(c32: Pair, c256: Pair, scaling: readonly [number, Pair][], options: HttpBenchOptions): BenchResult {
  const ratio = median(roundRatios(c32))
  const tail = p99(c256.judge) / p99(c256.bare)
  const errors = bad([c32, c256, ...scaling.map(([, p]) => p)])
  const perRound = (ms: readonly Measured[]) => ms.map((m) => count(m.rps)).join(', ')
  return {
    bench: 'judge-http',
    bar: `cache-hit POST /v1/judge (token, 3 questions) >= ${BAR * 100}% of bare node:http req/s; p99 at 256 connections <= ${P99_BAR}x bare`,
    figure: `${count(rps(c32.judge))} req/s, p99 ${ms(p99(c32.judge))}; ${cpu(c32.judge).toFixed(1)} µs CPU per request`,
    reference: `bare node:http ${count(rps(c32.bare))} req/s, p99 ${ms(p99(c32.bare))}; ${cpu(c32.bare).toFixed(1)} µs CPU per request`,
    ratio: `${ratio.toFixed(2)} of bare (bar ${BAR}); p99 at 256 connections ${tail.toFixed(2)}x bare (bar ${P99_BAR}x)`,
    pass: ratio >= BAR && tail <= P99_BAR && errors === 0,
    details: [
      `${TOOL} -t1, ${options.rounds} interleaved ${options.seconds} s rounds per server at 32 connections (${options.fewRounds} at 256 and per worker count), after ${options.warmupSeconds} s of warm-up; the ratio is the median of the rounds' ratios, the other figures medians of rounds; store beside the spec`,
      `32 connections, per round req/s: judge ${perRound(c32.judge)}; bare ${perRound(c32.bare)}`,
      `32 connections, per round ratio: ${roundRatios(c32)
        .map((r) => r.toFixed(2))
        .join(', ')}; ratio of the medians ${(rps(c32.judge) / rps(c32.bare)).toFixed(2)}`,
      `256 connections: judge ${count(rps(c256.judge))} req/s, p99 ${ms(p99(c256.judge))}, ${cpu(c256.judge).toFixed(1)} µs; bare ${count(rps(c256.bare))} req/s, p99 ${ms(p99(c256.bare))}, ${cpu(c256.bare).toFixed(1)} µs`,
      ...scaling.map(
        ([workers, p]) =>
          `${workers} worker${workers === 1 ? '' : 's'} (32 connections): judge ${count(rps(p.judge))} req/s, ${cpu(p.judge).toFixed(1)} µs; bare ${count(rps(p.bare))} req/s, ${cpu(p.bare).toFixed(1)} µs; ratio ${(rps(p.judge) / rps(p.bare)).toFixed(2)}`,
      ),
      `non-2xx, socket errors and timeouts: ${errors}`,
    ],
  }
}

/** The options from the command line; the defaults are the figures docs/benchmarks.md reports. */
export function optionsOf(argv: readonly string[]): HttpBenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string', default: '5' },
      'few-rounds': { type: 'string', default: '3' },
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      workers: { type: 'string', default: [...new Set([2, availableParallelism()])].join(',') },
      'cpu-prof': { type: 'boolean', default: false },
    },
  })
  const profiles = resolve(DATA, 'profiles')
  return {
    rounds: Number(values.rounds),
    fewRounds: Number(values['few-rounds']),
    seconds: Number(values.seconds),
    warmupSeconds: Number(values.warmup),
    workers: values.workers === '' ? [] : values.workers.split(',').map(Number),
    nodeArgs: values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profiles] : [],
  }
}

if (import.meta.main) report(await benchJudgeHttp(optionsOf(process.argv.slice(2))))
