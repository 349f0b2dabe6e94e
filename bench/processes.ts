import { spawn, type ChildProcess } from 'node:child_process'
import { ROOT } from './common.ts'

/** A server running in a child process. */
export interface ServerProcess {
  /** Its base URL, as it announced it. */
  readonly url: string
  readonly child: ChildProcess
  /** Stops it with SIGTERM (SIGKILL after `graceMs`) and waits for it to exit. */
  stop(graceMs?: number): Promise<void>
}

/**
 * Starts `node <script>` and waits (up to `timeoutMs`) for the line on its standard error that
 * says `listening on http://…`. Its output after that is dropped unless `echo` is set; `nodeArgs`
 * go to node before the script (e.g. --cpu-prof).
 */
export function startServerProcess(
  script: string,
  env: Record<string, string>,
  options: { timeoutMs?: number; echo?: boolean; nodeArgs?: readonly string[] } = {},
): Promise<ServerProcess> {
  const { timeoutMs = 30_000, echo = false, nodeArgs = [] } = options
  const child = spawn(process.execPath, ['--no-warnings', ...nodeArgs, script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(
      () => fail(new Error(`${script} did not start within ${timeoutMs} ms: ${seen}`)),
      timeoutMs,
    )
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.off('exit', early)
      child.kill('SIGKILL')
      reject(error)
    }
    const early = (code: number | null) => fail(new Error(`${script} exited with ${code} before listening: ${seen}`))
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      const found = /listening on (http:\/\/[^\s,]+)/.exec(seen)
      if (!found) return
      clearTimeout(timer)
      child.off('exit', early)
      child.stderr!.off('data', onData)
      child.stderr!.on('data', (more: Buffer) => echo && process.stderr.write(more))
      resolve({ url: found[1], child, stop: (graceMs = 15_000) => stopChild(child, graceMs) })
    }
    child.stderr!.on('data', onData)
    child.once('exit', early)
  })
}

/** Ends a child by its id: SIGTERM, then SIGKILL if it outlives `graceMs`. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
