import { request as httpRequest } from 'node:http'
import type { Test } from 'tap'
import { readConfig, type Config } from '../../src/config.ts'
import type { HandlerOptions } from '../../src/http/handler.ts'
import { startServer, type RunningServer } from '../../src/http/server.ts'

/** A response as a test reads it. */
export interface Response {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The body parsed as JSON; untyped on purpose, tests check every field themselves. */
  readonly body: any
}

/** A judge server on a free loopback port, its log, and a way to call it. */
export interface JudgeServer {
  readonly url: string
  readonly config: Config
  readonly running: RunningServer
  readonly logs: string[]
  /** Calls the server; a plain-object body is sent as JSON, a string as it is. */
  call(method: string, path: string, init?: { body?: unknown; headers?: Record<string, string> }): Promise<Response>
  get(path: string, headers?: Record<string, string>): Promise<Response>
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
}

/** Starts the real server over `projects` with the given environment; stopped at teardown. */
export async function startJudgeServer(
  t: Test,
  projects: string,
  env: Record<string, string> = {},
  options: HandlerOptions = {},
): Promise<JudgeServer> {
  const config = readConfig({ JUDGE_PROJECTS: projects, PORT: '0', HOST: '127.0.0.1', ...env }, projects)
  const logs: string[] = []
  const running = await startServer(config, { log: (line) => logs.push(line), ...options })
  t.teardown(() => running.stop(2000))
  const call: JudgeServer['call'] = async (method, path, init = {}) => {
    const body = init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
    const headers = {
      ...(typeof init.body === 'object' ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    }
    const res = await fetch(running.url + path, { method, headers, body: body as string | undefined })
    const text = await res.text()
    return { status: res.status, headers: res.headers, text, body: parseOrNull(text) }
  }
  return {
    url: running.url,
    config,
    running,
    logs,
    call,
    get: (path, headers) => call('GET', path, { headers }),
    post: (path, body, headers) => call('POST', path, { body, headers }),
  }
}

/** A raw request with node:http, for what fetch will not send (a NUL in a path, odd targets, chunked bodies). */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: readonly (string | Buffer)[] = [],
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on('error', reject)
    let i = 0
    const pump = (): void => {
      while (i < chunks.length) if (!req.write(chunks[i++])) return void req.once('drain', pump)
      req.end()
    }
    pump()
  })
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
