import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRateWindow, type RateLimit } from './rate-window.ts'
import { simulatedProbabilities } from './simulated-model.ts'
import type { ReceivedRequest, ScriptedReply } from './system-one-server.ts'
import { createBatchRoutes, isBatchRoute, type BatchBehaviour, type BatchRoutes } from './openai-batch-server.ts'

/** Options of the local OpenAI-compatible server; by default it answers like a stable model. */
export interface OpenAiServerOptions {
  readonly latencyMs?: number
  /** Fail this many requests first, with `status` (default 503) and `retryAfter`. */
  readonly failTimes?: number
  readonly status?: number
  readonly retryAfter?: string
  /** Answer without log probabilities, as a server that does not support them. */
  readonly noLogprobs?: boolean
  /** Report no usage. */
  readonly noUsage?: boolean
  /**
   * The text of a request asked at a temperature above 0, for its labels and its draw: how many such requests of the
   * same prompt came before it (so that k samples asked at once get draws 0 to k - 1 whatever their order); by
   * default the deterministic answer's text.
   */
  readonly drawn?: (labels: readonly string[], draw: number) => string
  /** Answer 401 unless the request carries `Bearer <expectKey>`. */
  readonly expectKey?: string
  /** The first token's alternatives for a request's labels; default a simulated model's (see below). */
  readonly top?: (labels: readonly string[], seed: string) => { token: string; logprob: number }[]
  /** Decides the reply to request number `index` (0-based) when it returns one. */
  readonly reply?: (request: ReceivedRequest, index: number) => ScriptedReply | undefined
  /** Closes the connection of request number `index` after this many bytes of its reply's body, when it returns one. */
  readonly cut?: (request: ReceivedRequest, index: number) => number | undefined
  readonly limit?: RateLimit
  /** The ids GET /v1/models lists; default the model the server is asked for in tests, `qwen2.5-7b-instruct`. */
  readonly models?: readonly string[]
  /** How the batch created `index`-th (0-based) behaves on the Batch API's routes; by default it completes at its first poll. */
  readonly batch?: (index: number) => BatchBehaviour
}

/** A running local server. */
export interface OpenAiServer {
  /** The API root to give the adapter, with its version: http://127.0.0.1:41234/v1. */
  readonly url: string
  readonly requests: ReceivedRequest[]
  readonly answered: ReceivedRequest[]
  /** The files uploaded or written and the batches created through the Batch API's routes. */
  readonly batches: Pick<BatchRoutes, 'files' | 'batches'>
  close(): Promise<void>
}

/** The environment of a judge asking `server` as ENGINE=openai for the model it serves, `extra` added. */
export function openAiEnv(
  server: Pick<OpenAiServer, 'url'>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return { ENGINE: 'openai', ENGINE_URL: server.url, ENGINE_MODEL: 'qwen2.5-7b-instruct', ...extra }
}

/**
 * Starts a server speaking OpenAI's chat completions with logprobs, as vLLM, llama.cpp and Ollama
 * do, and OpenAI's files and batches (openai-batch-server.ts), whose lines it answers as the same
 * chat completions request alone.
 */
export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const requests: ReceivedRequest[] = []
  const answered: ReceivedRequest[] = []
  const window = options.limit ? createRateWindow(options.limit) : null
  const draws = new Map<string, number>()
  const replyOptions = { ...options, draws }
  const batches = createBatchRoutes((body) => chatReply(body, replyOptions), options.batch)
  const server = createServer(
    (req, res) => void handle(req, res).catch((error: unknown) => send(res, error500(String(error)))),
  )
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => resolve(Buffer.concat(chunks)))
    })
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: parse(raw.toString()),
    }
    const index = requests.push(request) - 1
    const admitted = !window || window.admit(Date.now())
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs))
    const reply = admitted
      ? await replyTo(request, raw, index, replyOptions, batches)
      : failure(429, 'rate limit reached', options.limit!.retryAfter)
    if (reply.status === 200) answered.push(request)
    const cut = options.cut?.(request, index)
    if (cut === undefined) send(res, reply)
    else sendCut(res, reply, cut)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    answered,
    batches,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

async function replyTo(
  request: ReceivedRequest,
  raw: Buffer,
  index: number,
  options: OpenAiServerOptions,
  batches: BatchRoutes,
): Promise<ScriptedReply> {
  if (request.method === 'GET' && request.path === '/v1/models')
    return { status: 200, body: modelList(options.models ?? ['qwen2.5-7b-instruct']) }
  const batchRoute = isBatchRoute(request.path)
  if (!batchRoute && (request.method !== 'POST' || request.path !== '/v1/chat/completions'))
    return failure(404, 'not found')
  if (options.expectKey !== undefined && request.headers.authorization !== `Bearer ${options.expectKey}`)
    return failure(401, 'Incorrect API key provided')
  const scripted = options.reply?.(request, index)
  if (scripted) return scripted
  if (index < (options.failTimes ?? 0)) return failure(options.status ?? 503, 'overloaded', options.retryAfter)
  return batchRoute ? batches.reply(request, raw) : chatReply(request.body, options)
}

/** What the server counts of the requests it drew for: per prompt, how many came. */
interface Draws {
  readonly draws?: Map<string, number>
}

/**
 * The reply to one chat completions body: the simulated model's answer, or 400 for a body it cannot take. A body
 * without `logprobs` is answered without them; one at a temperature above 0 with `drawn`'s text.
 */
export function chatReply(body: any, options: OpenAiServerOptions & Draws = {}): ScriptedReply {
  if (typeof body?.model !== 'string' || !Array.isArray(body.messages))
    return failure(400, 'model and messages are required')
  if (body.logprobs !== undefined && (body.logprobs !== true || !(body.top_logprobs >= 1 && body.top_logprobs <= 20)))
    return failure(400, 'top_logprobs must be between 1 and 20 with logprobs')
  if (body.logprobs === undefined && body.top_logprobs !== undefined) return failure(400, 'top_logprobs needs logprobs')
  return { status: 200, body: completion(body, options) }
}

/** The labels a prompt lists, one `- label` or `- label: description` line each, as a model reads them. */
export function promptLabels(prompt: string): string[] {
  const section = prompt.split('\nLabels:\n')[1]?.split('\n\n')[0] ?? ''
  return section
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).split(': ')[0])
}

/**
 * A stable made-up model: a distribution over the labels from a hash of the prompt, where each
 * label's first token is its first four letters (so long labels take several tokens), the top
 * label also appears capitalized, a label the model is sure against is missing, and two stray
 * tokens take a little mass.
 */
export function simulatedTop(labels: readonly string[], seed: string): { token: string; logprob: number }[] {
  const p = simulatedProbabilities(seed, labels.length)
  const top = p.indexOf(Math.max(...p))
  const tokens = labels.flatMap((label, i) => {
    if (p[i] === 0) return []
    const piece = (i % 2 === 0 ? ' ' : '') + label.slice(0, 4)
    if (i !== top) return [{ token: piece, logprob: Math.log(p[i] * 0.97) }]
    return [
      { token: piece, logprob: Math.log(p[i] * 0.9) },
      { token: label[0].toUpperCase() + label.slice(1, 4), logprob: Math.log(p[i] * 0.07) },
    ]
  })
  tokens.push({ token: 'The', logprob: Math.log(0.02) }, { token: '\n', logprob: Math.log(0.01) })
  return tokens.sort((a, b) => b.logprob - a.logprob)
}

function completion(body: any, options: OpenAiServerOptions & Draws): object {
  const prompt = body.messages.map((m: { content: string }) => m.content).join('\n')
  const labels = promptLabels(prompt)
  const top = (options.top ?? simulatedTop)(labels, prompt).slice(0, body.top_logprobs ?? 1)
  const first = top[0] ?? { token: '', logprob: 0 }
  const logprobs =
    options.noLogprobs || body.logprobs !== true
      ? null
      : { content: [{ ...first, bytes: [...Buffer.from(first.token)], top_logprobs: top }] }
  const text = body.temperature > 0 && options.drawn ? options.drawn(labels, draw(options, prompt)) : first.token
  const promptTokens = Math.ceil(prompt.length / 4) + 16
  return {
    id: 'chatcmpl-local',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs, finish_reason: 'length' }],
    ...(options.noUsage
      ? {}
      : { usage: { prompt_tokens: promptTokens, completion_tokens: 1, total_tokens: promptTokens + 1 } }),
  }
}

/** The draw of a request of `prompt` at a temperature above 0: how many such requests of it came before. */
export function draw(options: Draws, prompt: string): number {
  const n = options.draws?.get(prompt) ?? 0
  options.draws?.set(prompt, n + 1)
  return n
}

/** The text of draw `draw`: the labels `sequence` names by index, in turn (a scripted model that changes its mind). */
export function inTurn(sequence: readonly number[]): (labels: readonly string[], draw: number) => string {
  return (labels, draw) => labels[sequence[draw % sequence.length]]
}

/** The list GET /v1/models answers, as vLLM writes it. */
function modelList(ids: readonly string[]): object {
  return {
    object: 'list',
    data: ids.map((id) => ({
      id,
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'vllm',
      root: id,
      max_model_len: 32768,
    })),
  }
}

function failure(status: number, message: string, retryAfter?: string): ScriptedReply {
  const reply = { status, body: { error: { message, type: 'invalid_request_error', code: null } } }
  return retryAfter === undefined ? reply : { ...reply, headers: { 'retry-after': retryAfter } }
}

function error500(message: string): ScriptedReply {
  return failure(500, message)
}

function send(res: ServerResponse, reply: ScriptedReply): void {
  if (res.destroyed || res.headersSent) return
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
  res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
}

/** Sends the reply's head, with the whole body's length, and `bytes` of its body, then closes the connection. */
function sendCut(res: ServerResponse, reply: ScriptedReply, bytes: number): void {
  const body = Buffer.from(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers, 'content-length': body.length })
  res.write(body.subarray(0, bytes), () => res.destroy())
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
