import type { Worker } from 'node:cluster'
import { extname, join } from 'node:path'
import type { Config } from '../config.ts'
import { relayMetrics } from './ops/metrics-cluster.ts'
import { serveUntil, SHUTDOWN_MS, type ServeIo } from './server.ts'

/** The module each worker process runs: the same extension as this one, in the source or the built package. */
export const WORKER_ENTRY = join(import.meta.dirname, `cluster-worker${extname(import.meta.filename)}`)

/** What a primary sends its worker: the configuration to serve, read once by the primary. */
export interface WorkerOrder {
  readonly kind: 'serve'
  readonly config: Config
}

/**
 * Serves `config` until `io.signal` aborts: in this process for one worker, else in
 * `config.workers` processes sharing the port through node:cluster (loaded only then). Returns the exit status.
 */
export async function serveAll(config: Config, io: ServeIo): Promise<number> {
  if (config.workers <= 1) {
    await serveUntil(config, io)
    return 0
  }
  return servePrimary(config, io)
}

/**
 * The primary of a cluster: starts the workers, logs their lines, replaces a worker that dies
 * while serving, and on abort asks every worker to stop (each finishes its requests in flight,
 * as one server does) and waits for them all. A worker that fails before it listens (a port in
 * use) stops them all, with its exit status.
 */
async function servePrimary(config: Config, io: ServeIo): Promise<number> {
  // node:cluster is loaded here, by a primary alone: a server of one process never loads it.
  const { default: cluster } = await import('node:cluster')
  cluster.setupPrimary({ exec: WORKER_ENTRY, args: [], silent: true })
  const running = new Set<Worker>()
  let stopping = false
  let failed: number | null = null
  let listening = 0
  let finish!: () => void
  const ended = new Promise<void>((resolve) => (finish = resolve))
  const stopAll = () => {
    stopping = true
    for (const worker of running) worker.process.kill('SIGTERM')
    if (running.size === 0) finish()
  }
  const start = (): void => {
    const worker = cluster.fork()
    running.add(worker)
    let ready = false
    forwardLines(worker, io.log)
    relayMetrics(worker, () => running)
    worker.once('listening', (address) => {
      ready = true
      if (++listening === config.workers)
        io.log(`judge server: ${config.workers} workers share ${urlOf(address)} (primary ${process.pid})`)
    })
    // 'close', not 'exit': the worker's last lines have come through its pipes by then.
    worker.process.once('close', (code, signal) => {
      running.delete(worker)
      if (stopping) return void (running.size === 0 && finish())
      io.log(
        `worker ${worker.process.pid} exited ` +
          `(${signal ?? `status ${code}`})${ready ? '; starting another' : ' before it listened; stopping'}`,
      )
      if (ready) return start()
      failed = code || 1
      stopAll()
    })
    worker.send({ kind: 'serve', config } satisfies WorkerOrder)
  }
  for (let i = 0; i < config.workers; i++) start()
  const abort = () => stopAll()
  io.signal.addEventListener('abort', abort, { once: true })
  if (io.signal.aborted) stopAll()
  // A worker that outlives its own shutdown bound is ended.
  const deadline = () =>
    setTimeout(() => {
      for (const worker of running) worker.process.kill('SIGKILL')
    }, SHUTDOWN_MS + 5000).unref()
  io.signal.addEventListener('abort', deadline, { once: true })
  await ended
  io.signal.removeEventListener('abort', abort)
  return failed ?? 0
}

function forwardLines(worker: Worker, log: (line: string) => void): void {
  let pending = ''
  const take = (chunk: Buffer) => {
    pending += chunk.toString()
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) log(line)
  }
  worker.process.stdout?.on('data', take)
  worker.process.stderr?.on('data', take)
  worker.process.once('close', () => pending && log(pending))
}

function urlOf(address: { address: string | null; port: number }): string {
  const host = address.address ?? '127.0.0.1'
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
}
