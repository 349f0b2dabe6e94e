import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { existsSync, readFileSync } from 'node:fs'
import { runCli } from '../src/cli/run-cli.ts'
import { readConfig } from '../src/config.ts'
import { createHandler } from '../src/http/handler.ts'

// The example's answers are the simulated engine's, kept under its own model id (simulated-1).
const SIMULATED = { ENGINE: 'simulated', JUDGE_MAX_COST: '1' }

/**
 * Builds the example project's store with the simulated engine (`ENGINE=simulated`), through the
 * same code path as `judge run`: a run over messages.csv, then one over later.csv, whose mix of spam differs, so
 * that the runs page shows drift. Then 60 requests to the server keep their rows (`log`) and
 * shadow the candidate spec, so that `judge replay` and the shadow report have data. Does
 * nothing when the store exists, unless given --force.
 */
export async function buildExampleStore(
  force = false,
  root: string = import.meta.dirname,
  out: { write(s: string): unknown } = process.stdout,
): Promise<number> {
  const dir = resolve(root, 'sms')
  if (!force && existsSync(resolve(dir, '.judge/store.sqlite'))) return 0
  const io = { stdout: out, stderr: process.stderr, env: SIMULATED, cwd: dir }
  for (const data of ['messages.csv', 'later.csv']) {
    const code = await runCli(['run', 'spam.judge.yaml', '--data', data], io)
    if (code !== 0) return code
  }
  await shadowTraffic(root, resolve(dir, 'later.csv'))
  return 0
}

/** Sends rows to the server as live traffic would: kept for replay, shadowed by the candidate. */
async function shadowTraffic(root: string, file: string): Promise<void> {
  const config = readConfig(SIMULATED, root, root)
  const handler = createHandler(config, { log: () => {} })
  const server = createServer(handler)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  const rows: { message: string }[] = parse(readFileSync(file), { columns: true })
  for (const { message } of rows.slice(0, 60)) {
    const body = {
      path: 'sms/spam.judge.yaml',
      row: { message },
      log: true,
      shadow: 'sms/candidates/spam-v2.judge.yaml',
    }
    const res = await fetch(`http://127.0.0.1:${port}/v1/judge`, { method: 'POST', body: JSON.stringify(body) })
    if (!res.ok) throw new Error(`the example server answered ${res.status}: ${await res.text()}`)
  }
  await handler.close(10_000)
  server.close()
}

if (import.meta.main) process.exitCode = await buildExampleStore(process.argv.includes('--force'))
