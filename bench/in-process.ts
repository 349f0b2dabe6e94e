import { runCli } from '../src/cli/run-cli.ts'
import type { Engine } from '../src/ports/engine.ts'
import { PROJECT, SPEC } from './common.ts'

/** What one judgment's run record of `judge run --json` says. */
export interface RunJson {
  readonly rows: number
  readonly asked: number
  readonly cached: number
  readonly requests: number
  readonly status: string
}

/** An engine that fails the run if it is asked anything: every answer must come from the store. */
export function refusingEngine(defaultModel: string): Engine {
  return {
    defaultModel,
    async ask() {
      throw new Error('the engine was asked during a run that should be all cached')
    },
  }
}

/** Runs `judge run` on the bench spec in-process and returns its --json records; a non-zero exit throws. */
export async function runInProcess(
  data: string,
  env: Record<string, string>,
  engine: Engine,
  extra: readonly string[] = [],
): Promise<RunJson[]> {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    cwd: PROJECT,
  }
  const code = await runCli(['run', SPEC, '--data', data, '--json', ...extra], io, { engine })
  if (code !== 0) throw new Error(`judge run exited ${code}: ${stderr}`)
  return JSON.parse(stdout)
}
