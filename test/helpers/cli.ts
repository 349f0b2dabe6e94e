import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
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

/**
 * Where a child `node src/main.ts` (or another entry that turns no compile cache on itself, as
 * src/cli.ts does) keeps its compiled modules when it collects no coverage: a second start strips
 * no TypeScript again (about 0.3 s of CPU each). Not under c8: Node gives its own
 * NODE_V8_COVERAGE to every child, and V8 counts fewer branches in code read from the cache.
 */
export const CHILD_COMPILE_CACHE = resolve(ROOT, 'node_modules/.cache/judge-test-children')

/** The environment of a child `node` started with a fresh environment: PATH, the compile cache, and `env`. */
export function childEnv<E extends Record<string, string | undefined>>(
  env: E,
): E & { PATH: string | undefined; NODE_COMPILE_CACHE?: string } {
  const covered = Boolean(process.env.NODE_V8_COVERAGE || env.NODE_V8_COVERAGE)
  return { PATH: process.env.PATH, ...(covered ? {} : { NODE_COMPILE_CACHE: CHILD_COMPILE_CACHE }), ...env }
}

/** Starts `node src/cli.ts` as a child process with PATH and `env` alone, for a test to watch or kill. */
export function startCli(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  stdio: StdioOptions = 'pipe',
): ChildProcess {
  return spawn(process.execPath, ['--no-warnings', resolve(ROOT, 'src/cli.ts'), ...argv], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio,
  })
}

/** Runs `node src/cli.ts` as a child process, as a user would. */
export function spawnCli(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = startCli(argv, env, cwd)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d) => (stdout += d))
    child.stderr!.on('data', (d) => (stderr += d))
    child.on('error', fail)
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }))
  })
}
