import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { runCli } from '../../src/cli/run-cli.ts'
import type { RuntimeOptions } from '../../src/runtime.ts'

/** What a CLI invocation printed and returned. */
export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the CLI in-process with the given environment (nothing else of process.env leaks in). */
export async function cli(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  options: RuntimeOptions = {},
): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(
    argv,
    {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env,
      cwd,
    },
    options,
  )
  return { code, stdout, stderr }
}

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..')

/** Runs `node src/cli.ts` as a child process, as a user would. */
export function spawnCli(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--no-warnings', resolve(ROOT, 'src/cli.ts'), ...argv], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', fail)
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }))
  })
}
