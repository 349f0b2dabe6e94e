import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { WireRequest } from '../../src/adapters/system-one/system-one-wire.ts'
import { noisyAnswers, type Noise } from './noisy-answers.ts'
import { createRateWindow, type RateLimit } from './rate-window.ts'
import { simulatedAnswers } from './simulated-model.ts'

/** A request as the server received it: the body parsed as JSON, or the raw text when it is not. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  /** Untyped on purpose: tests read whatever the client sent, well-formed or not. */
  readonly body: any
}

/** A reply a test writes out in full. A string body is sent as it is, anything else as JSON. */
export interface ScriptedReply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: unknown
}

/** Options of the local System One server; by default it answers like a deterministic model. */
export interface SystemOneServerOptions {
  /** Per-question answers in wire form for a request body; default simulatedAnswers. */
  readonly answer?: (body: WireRequest) => Record<string, unknown>
  /** Answers with run-to-run noise (noisy-answers.ts) instead of the stable simulated ones. */
  readonly noise?: Noise
  readonly latencyMs?: number
  /** Fail this many requests first, with `status` (default 503) and `errorMessage`. */
  readonly failTimes?: number
  readonly status?: number
  readonly errorMessage?: string
  /** Retry-After header sent with those failures. */
  readonly retryAfter?: string
  /** Answer 200 with a body that is not JSON. */
  readonly garbage?: boolean
  /** Answer 401 unless the request carries `Bearer <expectKey>`. */
  readonly expectKey?: string
  /** The model reported; default the requested one, with `jev-latest` resolved to a build. */
  readonly model?: string
  /** Holds every reply until this many requests have arrived, so that they are answered together. */
  readonly gather?: number
  /** Decides the reply to request number `index` (0-based) when it returns one. */
  readonly reply?: (request: ReceivedRequest, index: number) => ScriptedReply | undefined
  /** Refuse requests over this rate with 429, as the API enforces its published limit (which may halve mid-run). */
  readonly limit?: RateLimit
  /** The clock of the rate limit, in milliseconds; Date.now unless a test keeps its own. */
  readonly now?: () => number
  /** Never answer request `hangFrom` and those after it, as an engine that hangs. */
  readonly hangFrom?: number
  /** The option mass given with each answer (by question name and request body); none when absent or undefined. */
  readonly optionMass?: (question: string, body: WireRequest) => number | undefined
  /** The path the API is served under, as a gateway serves it (`/ai-gateway/typesafe`); default none. */
  readonly basePath?: string
  /** What GET /v1/models lists; default DEFAULT_MODELS. */
  readonly models?: readonly { readonly name: string; readonly description?: string; readonly release_date?: string }[]
}

/** The models the local server lists by default: TypeSafe's two aliases and two pinned builds. */
export const DEFAULT_MODELS = [
  {
    name: 'jev-latest',
    description: "The latest iteration of TypeSafe's System One Model: Jev",
    release_date: '2026-09-10T18:38:01.391457+00:00',
  },
  {
    name: 'jev-preview',
    description: 'A preview version of `jev-latest`: should be better in most ways',
    release_date: '2026-09-10T18:39:06.057655+00:00',
  },
  { name: 'jev-1.14.0', description: 'Jev 1.14.0' },
  { name: 'jev-1.13.0', description: 'Jev 1.13.0' },
] as const

/** A running local server. */
export interface SystemOneServer {
  /** The API root to give the adapter, e.g. http://127.0.0.1:41234. */
  readonly url: string
  readonly requests: ReceivedRequest[]
  /** The requests answered 200, each with its row's answers. */
  readonly answered: ReceivedRequest[]
  /** Requests refused for the rate limit (429). */
  readonly refused: () => number
  close(): Promise<void>
}

/** Starts a server speaking the System One wire format on a free loopback port. */
export async function startSystemOneServer(options: SystemOneServerOptions = {}): Promise<SystemOneServer> {
  const requests: ReceivedRequest[] = []
  const answered: ReceivedRequest[] = []
  const window = options.limit ? createRateWindow(options.limit) : null
  const timers = new Set<NodeJS.Timeout>()
  const held: (() => void)[] = []
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, { status: 500, body: { detail: String(error) } }))
  })
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req)
    const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parse(text) }
    const index = requests.push(request) - 1
    if (options.gather !== undefined) {
      if (requests.length < options.gather) await new Promise<void>((resolve) => held.push(resolve))
      else for (const release of held.splice(0)) release()
    }
    if (options.hangFrom !== undefined && index >= options.hangFrom) return
    const at = (options.now ?? Date.now)()
    const admitted = !window || window.admit(at)
    if (options.latencyMs) await new Promise((resolve) => timers.add(setTimeout(resolve, options.latencyMs)))
    const reply = admitted ? replyTo(request, index, options) : rateLimited(options.limit!, window!.freeInMs(at))
    if (reply.status === 200) answered.push(request)
    send(res, reply, `req_${index + 1}`)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answered,
    refused: () => window?.refused ?? 0,
    close: () => {
      for (const timer of timers) clearTimeout(timer)
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

function replyTo(request: ReceivedRequest, index: number, options: SystemOneServerOptions): ScriptedReply {
  const base = options.basePath ?? ''
  const listing = request.method === 'GET' && request.path === `${base}/v1/models`
  if (!listing && (request.method !== 'POST' || request.path !== `${base}/v1/systemone`))
    return problem(404, 'not_found', 'Not Found')
  if (options.expectKey !== undefined && request.headers.authorization !== `Bearer ${options.expectKey}`) {
    return problem(401, 'authentication_error', 'Cannot authenticate with the server. Please check your API key.')
  }
  const scripted = options.reply?.(request, index)
  if (scripted) return scripted
  if (listing) return { status: 200, body: { models: options.models ?? DEFAULT_MODELS } }
  if (index < (options.failTimes ?? 0)) {
    const failure = problem(options.status ?? 503, 'server_error', options.errorMessage ?? 'overloaded')
    return options.retryAfter === undefined ? failure : { ...failure, headers: { 'retry-after': options.retryAfter } }
  }
  if (options.garbage) return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Bad gate</html>' }
  const invalid = validate(request.body)
  if (invalid.length > 0) return { status: 422, body: { detail: invalid } }
  return { status: 200, body: answerOf(request.body, options) }
}

/** The API's refusal of a request over its rate limit; `freeInMs` is sent as retry-after-ms when the limit says so. */
export function rateLimited(limit: RateLimit, freeInMs = 0): ScriptedReply {
  const reply = problem(
    429,
    'rate_limit_error',
    `Rate limit of ${limit.requests} requests per ${limit.windowMs / 1000} s exceeded`,
  )
  const headers = {
    ...(limit.retryAfter === undefined ? {} : { 'retry-after': limit.retryAfter }),
    ...(limit.retryAfterMs ? { 'retry-after-ms': String(Math.ceil(freeInMs)) } : {}),
  }
  return Object.keys(headers).length === 0 ? reply : { ...reply, headers }
}

function answerOf(body: WireRequest, options: SystemOneServerOptions): object {
  const questions = Object.keys(body.questions).length
  const model = options.model ?? (body.model === 'jev-latest' ? 'jev-1.13.0' : body.model)
  const inputTokens = Math.round(275 + 0.19 * JSON.stringify(body.state).length + 21 * questions)
  const answers = (options.answer ?? (options.noise ? noisyAnswers(options.noise) : simulatedAnswers))(body)
  for (const [name, answer] of Object.entries(answers)) {
    const optionMass = options.optionMass?.(name, body)
    if (optionMass !== undefined) answers[name] = { ...(answer as object), option_mass: optionMass }
  }
  return { model, answers, usage: { input_tokens: inputTokens, output_tokens: questions } }
}

/** Roughly the API's own checks, so that a malformed request fails here as it would there. */
function validate(body: any): object[] {
  if (typeof body !== 'object' || body === null) return [invalid([], 'Input should be an object')]
  const problems: object[] = []
  if (typeof body.model !== 'string') problems.push(invalid(['model'], 'Field required'))
  if (typeof body.state !== 'object' || body.state === null) problems.push(invalid(['state'], 'Field required'))
  if (typeof body.questions !== 'object' || body.questions === null) {
    return [...problems, invalid(['questions'], 'Field required')]
  }
  for (const [name, question] of Object.entries<any>(body.questions)) {
    const problem = questionProblem(question)
    if (problem) problems.push(invalid(['questions', name, problem[0]], problem[1]))
  }
  return problems
}

function questionProblem(q: any): [string, string] | null {
  if (!['noul', 'choice', 'score'].includes(q?.type)) return ['type', "Input should be 'noul', 'choice' or 'score'"]
  if (typeof q.instructions !== 'string') return ['instructions', 'Input should be a valid string']
  if (q.type === 'choice' && !(typeof q.criteria === 'object' && Object.keys(q.criteria ?? {}).length >= 2)) {
    return ['criteria', 'A choice needs at least 2 options']
  }
  if (q.type === 'score' && !(Array.isArray(q.criteria) && q.criteria.length >= 2 && q.criteria.length <= 10)) {
    return ['criteria', 'A score needs 2 to 10 levels']
  }
  if (q.type === 'noul' && Object.keys(q.criteria ?? {}).some((key) => key !== 'true' && key !== 'false')) {
    return ['criteria', 'Noul criteria take only true and false']
  }
  return null
}

function invalid(loc: readonly string[], msg: string): object {
  return { loc: ['body', ...loc], msg, type: 'value_error' }
}

function problem(status: number, errorType: string, message: string): ScriptedReply {
  return { status, body: { detail: { error_type: errorType, message } } }
}

function send(res: ServerResponse, reply: ScriptedReply, requestId = 'req_0'): void {
  if (res.destroyed || res.headersSent) return
  const text = typeof reply.body === 'string' ? reply.body : shuffledJson(reply.body, String(reply.status))
  const headers = { 'content-type': 'application/json', 'x-typesafe-request-id': requestId }
  res.writeHead(reply.status, { ...headers, ...reply.headers })
  res.end(text)
}

/** JSON with every object's keys in a scrambled order, as the API does not keep key order. */
export function shuffledJson(value: unknown, seed: string): string {
  if (Array.isArray(value)) return `[${value.map((item) => shuffledJson(item, seed)).join(',')}]`
  if (typeof value !== 'object' || value === null) return JSON.stringify(value)
  const record = value as Record<string, unknown>
  const order = (key: string): string =>
    createHash('sha256')
      .update(seed + key)
      .digest('hex')
  const keys = Object.keys(record).filter((key) => record[key] !== undefined)
  keys.sort((a, b) => order(a).localeCompare(order(b)))
  return `{${keys.map((key) => `${JSON.stringify(key)}:${shuffledJson(record[key], seed)}`).join(',')}}`
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
