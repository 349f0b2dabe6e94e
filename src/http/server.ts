import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import type { Config } from '../config.ts'
import { ListenError } from '../errors.ts'
import { capPerClient, type ClientCap } from './client-cap.ts'
import { createHandler, type HandlerOptions, type JudgeHandler } from './handler.ts'

/** What `npm start` serves when JUDGE_PROJECTS is unset: the repository's examples. */
export const DEFAULT_PROJECTS = resolve(import.meta.dirname, '../../examples')

/** How long a shutdown waits for requests and shadow judgments in flight. */
export const SHUTDOWN_MS = 10_000

/** A listening server. */
export interface RunningServer {
  /** The base URL, e.g. http://127.0.0.1:8080. */
  readonly url: string
  readonly server: Server
  readonly handler: JudgeHandler
  /** The per-client connection cap (JUDGE_MAX_CONNECTIONS_PER_CLIENT) and what it refused. */
  readonly clients: ClientCap
  /**
   * Stops accepting connections, waits for requests and shadow judgments in flight (up to
   * `timeoutMs`), closes the stores and every connection. True when nothing was cut short.
   */
  stop(timeoutMs?: number): Promise<boolean>
}

/** Starts the HTTP server on the configured HOST and PORT (0 picks a free port). */
export async function startServer(config: Config, options: HandlerOptions = {}): Promise<RunningServer> {
  const handler = createHandler(config, options)
  const { headersTimeoutMs, requestTimeoutMs, maxConnections, maxConnectionsPerClient } = config.limits
  // Timeouts are checked every second, so a slow client is cut off close to its deadline.
  const server = createServer(
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 },
    handler,
  )
  server.maxConnections = maxConnections
  const clients = capPerClient(
    server,
    maxConnectionsPerClient,
    options.log ?? ((line) => void process.stderr.write(`${line}\n`)),
  )
  // Answering Expect: 100-continue ourselves lets an oversized body be refused before it is sent.
  server.on('checkContinue', handler)
  await new Promise<void>((done, fail) => {
    const refused = (error: NodeJS.ErrnoException) => fail(listenError(error, config))
    server.once('error', refused)
    server.listen(config.port, config.host, () => {
      server.off('error', refused)
      done()
    })
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  let stopping: Promise<boolean> | null = null
  return {
    url: `http://${host}:${port}`,
    server,
    handler,
    clients,
    stop: (timeoutMs = SHUTDOWN_MS) => (stopping ??= stop(server, handler, timeoutMs)),
  }
}

/** A listen failure in words, with the setting that changes it; other failures stay as they are. */
export function listenError(error: NodeJS.ErrnoException, config: Pick<Config, 'host' | 'port'>): Error {
  const where = `${config.host}:${config.port}`
  const why: Record<string, string> = {
    EADDRINUSE:
      `${where} is already in use (another server?); stop it, or set PORT to another port (PORT=0 picks a free ` +
      'one)',
    EACCES: `listening on ${where} is not allowed (ports below 1024 need privileges); set PORT to 1024 or above`,
    EADDRNOTAVAIL: `${config.host} is not an address of this machine; set HOST (default 127.0.0.1)`,
  }
  const text = error.code ? why[error.code] : undefined
  return text
    ? new ListenError(`cannot listen: ${text}`, {
        cause: error,
        context: { host: config.host, port: config.port, code: error.code },
      })
    : error
}

async function stop(server: Server, handler: JudgeHandler, timeoutMs: number): Promise<boolean> {
  const closed = new Promise<void>((done) => server.close(() => done()))
  server.closeIdleConnections()
  const finished = await handler.close(timeoutMs)
  server.closeAllConnections()
  await closed
  return finished
}

/** The line logged at startup: where it listens and what it serves; never a secret's value. */
export function startupLine(config: Config, url: string): string {
  const token = config.serverToken === null ? 'no token (open to anyone who can reach it)' : 'token required'
  const key =
    config.engine.kind === 'simulated'
      ? "simulated engine (its answers are not a real model's)"
      : config.engine.apiKey === null
        ? 'no engine key (cached rows only)'
        : 'engine key set'
  return `judge server listening on ${url}, serving ${config.projects}; ${token}; ${key}`
}

/** Where a served process writes and what tells it to stop. */
export interface ServeIo {
  readonly log: (line: string) => void
  readonly signal: AbortSignal
}

/**
 * Runs the server until `signal` aborts (SIGTERM, SIGINT), then shuts down gracefully. Shared by
 * `node src/main.ts` and `judge serve`.
 */
export async function serveUntil(config: Config, io: ServeIo, options: HandlerOptions = {}): Promise<void> {
  const running = await startServer(config, { log: io.log, ...options })
  io.log(startupLine(config, running.url))
  // Not fatal: the folder may be mounted after the server starts, and requests then find it.
  if (!existsSync(config.projects))
    io.log(`warning: ${config.projects} does not exist; every path is 404 until it does`)
  if (!io.signal.aborted) await new Promise((done) => io.signal.addEventListener('abort', done, { once: true }))
  io.log('shutting down: finishing the requests and shadow judgments in flight')
  const finished = await running.stop()
  io.log(finished ? 'stopped' : `stopped after ${SHUTDOWN_MS / 1000} s with work still in flight`)
}
