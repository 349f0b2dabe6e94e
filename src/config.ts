import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { UsageError } from './errors.ts'
import { ENGINE_KINDS, type EngineKind } from './core/engine-kinds.ts'
import { number, readEngine, text, type EngineConfig, type Env } from './config-engine.ts'
import { readJurorEngines, type JurorEngines } from './config-jurors.ts'

export { ENGINE_KINDS, type EngineConfig, type EngineKind }

/** Everything the product reads from the environment, read once at the edge. */
export interface Config {
  /** JUDGE_PROJECTS, absolute; the folder the server serves. */
  readonly projects: string
  /** JUDGE_SERVER_TOKEN, or null for an open server. */
  readonly serverToken: string | null
  /** JUDGE_SERVER_MAX_COST in USD (server, per judgment per request). */
  readonly serverMaxCost: number
  /** JUDGE_SERVER_MAX_DAILY_COST in USD (server, per store per UTC day), or null for none. */
  readonly serverMaxDailyCost: number | null
  /** JUDGE_MAX_COST in USD (CLI, per judgment per command). */
  readonly maxCost: number
  /** JUDGE_BATCH_POLL_MS: the first wait between polls of a bulk run's batches; doubled each poll, up to 60 s. */
  readonly batchPollMs: number
  /** JUDGE_STORE, absolute, or null to find the store beside the specs. */
  readonly store: string | null
  readonly host: string
  readonly port: number
  readonly engine: EngineConfig
  /** The settings of each engine kind a jury's juror may name (ENGINE_<KIND>_URL, …; src/config-jurors.ts). */
  readonly jurors: JurorEngines
  readonly limits: ServerLimits
  /** JUDGE_WORKERS: server processes sharing the port (node:cluster); 1 serves in the process itself. */
  readonly workers: number
  /** JUDGE_ALLOWED_HOSTS: host names an open server answers for beside loopback and IP addresses (docs/security.md). */
  readonly allowedHosts: readonly string[]
  /** What the server tells whoever runs it (docs/deploy.md): metrics and the access log. */
  readonly observe: Observe
  /**
   * JUDGE_REVIEW_LEASE_S: how long a card shown to a named reviewer is held for them, in seconds (docs/review.md,
   * Leases).
   */
  readonly reviewLeaseS: number
}

/** JUDGE_METRICS and JUDGE_ACCESS_LOG. */
export interface Observe {
  /** JUDGE_METRICS: whether requests, answers and engine calls are counted and GET /metrics answers; default on. */
  readonly metrics: boolean
  /** JUDGE_ACCESS_LOG: `json` writes one line per request to standard output; null (the default) writes none. */
  readonly accessLog: 'json' | null
}

/** How the server bounds slow or numerous clients (docs/configuration.md). */
export interface ServerLimits {
  /** JUDGE_HEADERS_TIMEOUT_MS: time to receive a request's headers. */
  readonly headersTimeoutMs: number
  /** JUDGE_REQUEST_TIMEOUT_MS: time to receive a whole request, body included. */
  readonly requestTimeoutMs: number
  /** JUDGE_MAX_CONNECTIONS: connections open at once; more are refused. */
  readonly maxConnections: number
  /** JUDGE_MAX_CONNECTIONS_PER_CLIENT: connections open at once from one remote address; more are closed. */
  readonly maxConnectionsPerClient: number
}

/** The environment variables the product reads, with their defaults (documented in docs/configuration.md). */
export const ENV_VARIABLES = [
  'JUDGE_PROJECTS',
  'JUDGE_SERVER_TOKEN',
  'JUDGE_SERVER_MAX_COST',
  'JUDGE_SERVER_MAX_DAILY_COST',
  'JUDGE_MAX_COST',
  'JUDGE_BATCH_POLL_MS',
  'JUDGE_STORE',
  'HOST',
  'PORT',
  'ENGINE',
  'ENGINE_URL',
  'ENGINE_API_KEY',
  'ENGINE_MODEL',
  'ENGINE_TIMEOUT_MS',
  'ENGINE_PRICE_PER_MTOK',
  'ENGINE_BATCH_PRICE_PER_MTOK',
  'ENGINE_RPM',
  'ENGINE_MAX_WAIT_S',
  'ENGINE_GIVE_UP_S',
  'ENGINE_MAX_RESPONSE_BYTES',
  'TYPESAFE_API_KEY',
  'TYPESAFE_BASE_URL',
  'TYPESAFE_DEFAULT_MODEL',
  'ANTHROPIC_API_KEY',
  'JUDGE_HEADERS_TIMEOUT_MS',
  'JUDGE_REQUEST_TIMEOUT_MS',
  'JUDGE_MAX_CONNECTIONS',
  'JUDGE_MAX_CONNECTIONS_PER_CLIENT',
  'JUDGE_WORKERS',
  'JUDGE_ALLOWED_HOSTS',
  'JUDGE_METRICS',
  'JUDGE_ACCESS_LOG',
  'JUDGE_REVIEW_LEASE_S',
] as const

const nonNegative = (n: number) => n >= 0

/** Reads and validates the configuration; a bad value is a UsageError naming the variable. */
export function readConfig(env: Env, cwd: string, defaultProjects?: string): Config {
  const store = text(env, 'JUDGE_STORE')
  return {
    projects: resolve(cwd, text(env, 'JUDGE_PROJECTS') ?? defaultProjects ?? '.'),
    serverToken: env.JUDGE_SERVER_TOKEN ? env.JUDGE_SERVER_TOKEN : null,
    serverMaxCost: number(env, 'JUDGE_SERVER_MAX_COST', 0.01, nonNegative, 'a cost in USD, 0 or more'),
    serverMaxDailyCost:
      text(env, 'JUDGE_SERVER_MAX_DAILY_COST') === null
        ? null
        : number(env, 'JUDGE_SERVER_MAX_DAILY_COST', 0, nonNegative, 'a cost in USD, 0 or more'),
    maxCost: number(env, 'JUDGE_MAX_COST', 1, nonNegative, 'a cost in USD, 0 or more'),
    batchPollMs: number(env, 'JUDGE_BATCH_POLL_MS', 1000, positiveWhole, 'a whole number of milliseconds above 0'),
    store: store === null ? null : resolve(cwd, store),
    host: text(env, 'HOST') ?? '127.0.0.1',
    port: number(env, 'PORT', 8080, (n) => Number.isInteger(n) && n >= 0 && n < 65536, 'a port number'),
    engine: readEngine(env),
    jurors: readJurorEngines(env),
    limits: limitsOf(env),
    workers: workersOf(text(env, 'JUDGE_WORKERS') ?? '1', 'JUDGE_WORKERS'),
    allowedHosts: hostsOf(text(env, 'JUDGE_ALLOWED_HOSTS')),
    observe: observeOf(env),
    reviewLeaseS: number(env, 'JUDGE_REVIEW_LEASE_S', 600, positiveWhole, 'a whole number of seconds above 0'),
  }
}

function observeOf(env: Env): Observe {
  const metrics = (text(env, 'JUDGE_METRICS') ?? 'on').toLowerCase()
  if (metrics !== 'on' && metrics !== 'off') throw new UsageError(`JUDGE_METRICS must be on or off, not "${metrics}"`)
  const log = (text(env, 'JUDGE_ACCESS_LOG') ?? 'off').toLowerCase()
  if (log !== 'json' && log !== 'off') throw new UsageError(`JUDGE_ACCESS_LOG must be json or off, not "${log}"`)
  return { metrics: metrics === 'on', accessLog: log === 'json' ? 'json' : null }
}

const positiveWhole = (n: number) => Number.isInteger(n) && n > 0

function limitsOf(env: Env): ServerLimits {
  const headersTimeoutMs = number(
    env,
    'JUDGE_HEADERS_TIMEOUT_MS',
    10_000,
    positiveWhole,
    'a whole number of milliseconds above 0',
  )
  const requestTimeoutMs = number(
    env,
    'JUDGE_REQUEST_TIMEOUT_MS',
    30_000,
    positiveWhole,
    'a whole number of milliseconds above 0',
  )
  // node:http needs the headers in before the whole request is due.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new UsageError(
      `JUDGE_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be above JUDGE_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    )
  const maxConnections = number(env, 'JUDGE_MAX_CONNECTIONS', 1024, positiveWhole, 'a whole number above 0')
  // A quarter of the slots by default: it takes four addresses to fill the server, and an honest
  // client (a browser opens at most six connections to a host) never comes near it.
  const maxConnectionsPerClient = number(
    env,
    'JUDGE_MAX_CONNECTIONS_PER_CLIENT',
    Math.max(1, Math.floor(maxConnections / 4)),
    positiveWhole,
    'a whole number above 0',
  )
  return { headersTimeoutMs, requestTimeoutMs, maxConnections, maxConnectionsPerClient }
}

/**
 * A count of server processes as JUDGE_WORKERS and `judge serve --workers` give it: a whole number
 * from 1, or `auto` for the machine's cores (os.availableParallelism); `name` says where it came from.
 */
export function workersOf(raw: string, name: string): number {
  if (raw.trim().toLowerCase() === 'auto') return availableParallelism()
  const n = Number(raw)
  if (!positiveWhole(n) || raw.trim() === '')
    throw new UsageError(`${name} must be a whole number above 0 or auto, not "${raw}"`)
  return n
}

/** JUDGE_ALLOWED_HOSTS as a list: comma-separated host names, `.name` for a name and its subdomains, `*` for any. */
export function hostsOf(raw: string | null): string[] {
  if (raw === null) return []
  const names = raw
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '')
  const bad = names.find((n) => n !== '*' && !/^\.?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(n))
  if (bad !== undefined)
    throw new UsageError(
      `JUDGE_ALLOWED_HOSTS must list host names separated by commas (or *), not ${JSON.stringify(bad)}`,
    )
  return names
}
