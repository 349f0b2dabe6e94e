import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import autocannon from 'autocannon'
import { DATA } from './common.ts'

/** The requests a load run sends: POST `path` with each body in turn, with a bearer token when given. */
export interface LoadRequests {
  readonly path: string
  readonly token: string | null
  readonly bodies: readonly string[]
}

/** What one load run measured of one server. */
export interface Measured {
  readonly rps: number
  /** Latency percentiles, in milliseconds. */
  readonly p50: number
  readonly p99: number
  /** Non-2xx responses, socket errors and timeouts. */
  readonly bad: number
  /** Server CPU time (user and system, every process of the server) per request, in microseconds. */
  readonly cpuUs: number
}

/** The load tool used: Debian's `wrk` when it is installed, else autocannon (an npm dev dependency). */
export const TOOL: 'wrk' | 'autocannon' = spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk'

/** Drives `url` with `connections` connections for `seconds`, measuring the CPU of the processes `pids` gives. */
export async function measureLoad(
  url: string,
  pids: () => readonly number[],
  requests: LoadRequests,
  connections: number,
  seconds: number,
): Promise<Measured> {
  const before = cpuMicros(pids())
  const run =
    TOOL === 'wrk'
      ? await runWrk(url, requests, connections, seconds)
      : await runAutocannon(url, requests, connections, seconds)
  const cpu = cpuMicros(pids()) - before
  return {
    rps: run.requests / run.seconds,
    p50: run.p50,
    p99: run.p99,
    bad: run.bad,
    cpuUs: cpu / Math.max(1, run.requests),
  }
}

interface Run {
  readonly requests: number
  readonly seconds: number
  readonly p50: number
  readonly p99: number
  readonly bad: number
}

/** `wrk -t1 -c<connections> -d<seconds>s` with bench/wrk-requests.lua, one thread as the brief's figure is taken. */
async function runWrk(url: string, requests: LoadRequests, connections: number, seconds: number): Promise<Run> {
  const bodies = resolve(DATA, 'wrk-bodies.txt')
  writeFileSync(bodies, requests.bodies.join('\n') + '\n')
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    resolve(import.meta.dirname, 'wrk-requests.lua'),
    url,
  ]
  const env = { ...process.env, WRK_BODIES: bodies, WRK_PATH: requests.path, WRK_TOKEN: requests.token ?? '' }
  const output = await new Promise<string>((done, fail) => {
    const child = spawn('wrk', args, { env, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d))
    child.on('error', fail)
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`wrk exited ${code}: ${out}`))))
  })
  const line = /WRK_RESULT (\{.*\})/.exec(output)
  if (!line) throw new Error(`wrk printed no result: ${output}`)
  const r = JSON.parse(line[1]) as {
    requests: number
    duration_us: number
    p50_us: number
    p99_us: number
    non2xx: number
    errors: number
  }
  return {
    requests: r.requests,
    seconds: r.duration_us / 1e6,
    p50: r.p50_us / 1000,
    p99: r.p99_us / 1000,
    bad: r.non2xx + r.errors,
  }
}

async function runAutocannon(url: string, requests: LoadRequests, connections: number, seconds: number): Promise<Run> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(requests.token ? { authorization: `Bearer ${requests.token}` } : {}),
  }
  const list = requests.bodies.map((body) => ({ method: 'POST', path: requests.path, headers, body }))
  const r = await autocannon({ url, connections, duration: seconds, requests: list, timeout: 10 })
  return {
    requests: r['2xx'] + r.non2xx,
    seconds: r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
  }
}

/** CPU time the processes have used so far (user and system), in microseconds, from /proc. */
export function cpuMicros(pids: readonly number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // A process that has exited has no more CPU to count.
    }
  }
  return ticks * (1e6 / CLOCK_TICKS)
}

// Linux reports /proc CPU times in USER_HZ, 100 on every mainstream architecture.
const CLOCK_TICKS = 100

/** A process and its children (the workers of a cluster), from /proc. */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
    return [pid, ...children.flatMap(processTree)]
  } catch {
    return [pid]
  }
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
