/**
 * The first `judge run` over 1,000 real messages against the local System One wire-format server,
 * then the same run again: requests sent, plan against run, and the time of each, measured in one
 * process run. The engine answers after `--latency` ms (default 50), as a remote engine would.
 */
import { mkdtempSync, copyFileSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { stringify } from 'csv-stringify/sync'
import { parse } from 'csv-parse/sync'
import { runCli } from '../src/cli/run-cli.ts'
import { startSystemOneServer } from '../test/helpers/system-one-server.ts'

const latency = Number(process.argv[process.argv.indexOf('--latency') + 1]) || 50
const root = resolve(import.meta.dirname, '..')
const dir = mkdtempSync(join(tmpdir(), 'judge-rerun-'))
copyFileSync(join(root, 'examples/sms/spam.judge.yaml'), join(dir, 'spam.judge.yaml'))
const rows: { id: string; message: string }[] = parse(readFileSync(join(root, 'examples/sms/messages.csv')), {
  columns: true,
})
writeFileSync(
  join(dir, 'messages.csv'),
  stringify([['id', 'message'], ...rows.slice(0, 1000).map((r) => [r.id, r.message])]),
)
writeFileSync(join(dir, 'spam.key.csv'), 'message,is_spam\n')

const engine = await startSystemOneServer({ expectKey: 'bench', latencyMs: latency })
const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'bench', ENGINE_RPM: '0' }
const quiet = { write: () => true }

async function timed(argv: string[]) {
  let out = ''
  const start = performance.now()
  const code = await runCli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: quiet, env, cwd: dir })
  return { code, ms: performance.now() - start, json: JSON.parse(out) }
}

const plan = (await timed(['plan', 'spam.judge.yaml', '--json'])).json[0]
const first = await timed(['run', 'spam.judge.yaml', '--json'])
const requestsFirst = engine.requests.length
const second = await timed(['run', 'spam.judge.yaml', '--json'])
await engine.close()
const [r1] = first.json
const [r2] = second.json
const report = {
  rows: r1.rows,
  distinct_states: plan.states,
  engine_latency_ms: latency,
  plan: { ask: plan.ask, requests: plan.requests, estimate: plan.estimate },
  first: {
    ms: Math.round(first.ms),
    requests_sent: requestsFirst,
    asked: r1.asked,
    requests: r1.requests,
    cost: r1.cost,
  },
  second: { ms: Math.round(second.ms), requests_sent: engine.requests.length - requestsFirst, asked: r2.asked },
  time_ratio: Number((second.ms / first.ms).toFixed(3)),
  plan_cost_error: Number((Math.abs(plan.estimate - r1.cost) / r1.cost).toFixed(3)),
}
console.log(JSON.stringify(report, null, 2))
