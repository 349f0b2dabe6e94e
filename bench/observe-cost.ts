// What watching the server costs: the cache-hit POST /v1/judge of bench/judge-http.ts against
// four judge servers in the same run, metrics off (JUDGE_METRICS=off), metrics on (the default),
// metrics on with the access log (JUDGE_ACCESS_LOG=json, its lines written to a pipe nobody reads
// but the OS), and metrics on with an OpenTelemetry SDK registered (bench/otel-sdk.ts: every
// span kept and exported to nowhere), in short interleaved rounds so that the shared machine's
// load falls on all four. Without an SDK (the first three) the spans are the API's no-op.
// `node bench/observe-cost.ts [rounds] [seconds]`; docs/benchmarks.md has the figures.
import { resolve } from 'node:path'
import { HTTP_PROJECT, MODEL, prepare, TOKEN } from './judge-http.ts'
import { measureLoad, processTree, type Measured } from './load.ts'
import { startServerProcess, type ServerProcess } from './processes.ts'
import { ROOT } from './common.ts'

const rounds = Number(process.argv[2] ?? 6)
const seconds = Number(process.argv[3] ?? 3)
const requests = await prepare()
const base = {
  JUDGE_PROJECTS: HTTP_PROJECT,
  JUDGE_SERVER_TOKEN: TOKEN,
  ENGINE_MODEL: MODEL,
  HOST: '127.0.0.1',
  PORT: '0',
  JUDGE_MAX_CONNECTIONS_PER_CLIENT: '1024',
}
const setups: Record<string, Record<string, string>> = {
  'metrics off': { JUDGE_METRICS: 'off' },
  'metrics on': {},
  'metrics on, access log': { JUDGE_ACCESS_LOG: 'json' },
  'metrics on, traced': {},
}
const nodeArgs: Record<string, readonly string[]> = {
  'metrics on, traced': ['--import', resolve(ROOT, 'bench/otel-sdk.ts')],
}
const servers: Record<string, ServerProcess> = {}
for (const [name, env] of Object.entries(setups))
  servers[name] = await startServerProcess(
    resolve(ROOT, 'src/main.ts'),
    { ...base, ...env },
    { nodeArgs: nodeArgs[name] ?? [] },
  )
const measured: Record<string, Measured[]> = Object.fromEntries(Object.keys(setups).map((name) => [name, []]))
try {
  for (const name of Object.keys(setups))
    await measureLoad(servers[name].url, () => processTree(servers[name].child.pid!), requests, 32, 2)
  const names = Object.keys(setups)
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      measured[name].push(
        await measureLoad(servers[name].url, () => processTree(servers[name].child.pid!), requests, 32, seconds),
      )
    }
  }
} finally {
  for (const server of Object.values(servers)) await server.stop()
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const off = median(measured['metrics off'].map((m) => m.rps))
console.log('| setup | req/s (median) | vs metrics off | p99 ms | CPU µs/request | rounds req/s |')
console.log('| --- | --- | --- | --- | --- | --- |')
for (const [name, runs] of Object.entries(measured)) {
  const rps = median(runs.map((m) => m.rps))
  console.log(
    `| ${name} | ${Math.round(rps)} | ${((rps / off - 1) * 100).toFixed(1)}% | ${median(runs.map((m) => m.p99)).toFixed(1)} | ${Math.round(median(runs.map((m) => m.cpuUs)))} | ${runs.map((m) => Math.round(m.rps)).join(', ')} |`,
  )
}
