import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { runCli } from '../src/cli/main.ts'
import { createSimulatedEngine } from './simulated-engine.ts'

/**
 * Builds the example project's store with the simulated engine, through the same code path as
 * `judge run`: a run over messages.csv, then one over later.csv, whose mix of spam differs, so
 * that the runs page shows drift. Does nothing when the store exists, unless given --force.
 */
export async function buildExampleStore(force = false): Promise<number> {
  const dir = resolve(import.meta.dirname, 'sms')
  if (!force && existsSync(resolve(dir, '.judge/store.sqlite'))) return 0
  const io = { stdout: process.stdout, stderr: process.stderr, env: { JUDGE_MAX_COST: '1' }, cwd: dir }
  const engine = createSimulatedEngine()
  for (const data of ['messages.csv', 'later.csv']) {
    const code = await runCli(['run', 'spam.judge.yaml', '--data', data], io, { engine })
    if (code !== 0) return code
  }
  return 0
}

if (import.meta.main) process.exitCode = await buildExampleStore(process.argv.includes('--force'))
