import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createMessageBatchRoutes,
  error,
  isMessageBatchRoute,
  type MessageBatchBehaviour,
  type MessageBatchRoutes,
} from './anthropic-batch-server.ts'
import { draw, promptLabels } from './openai-server.ts'
import { simulatedProbabilities } from './simulated-model.ts'
import type { ReceivedRequest, ScriptedReply } from './system-one-server.ts'

/** Options of the local Anthropic server; by default it answers like a stable model. */
export interface AnthropicServerOptions {
  /** Fail this many requests of /v1/messages first, with `status` (default 529) and `retryAfter`. */
  readonly failTimes?: number
  readonly status?: number
  readonly retryAfter?: string
  /** Answer 401 unless the request carries `x-api-key: <expectKey>`, echoing the key it was given. */
  readonly expectKey?: string
  /** The text of an answer for a request's labels; default the simulated model's label. */
  readonly text?: (labels: readonly string[], prompt: string) => string
  /**
   * The text of a request asked at a temperature above 0, for its labels and its draw (how many such requests of the
   * same prompt came before it); by default `text`'s.
   */
  readonly drawn?: (labels: readonly string[], draw: number) => string
  /** Decides the reply to request number `index` (0-based) when it returns one. */
  readonly reply?: (request: ReceivedRequest, index: number) => ScriptedReply | undefined
  /** The ids GET /v1/models lists. */
  readonly models?: readonly string[]
  /** How the batch created `index`-th (0-based) behaves; by default it ends at its first poll. */
  readonly batch?: (index: number) => MessageBatchBehaviour
}

/** A running local server. */
export interface AnthropicServer {
  /** The API root to give the adapter, without its version: http://127.0.0.1:41234. */
  readonly url: string
  readonly requests: ReceivedRequest[]
  /** Requests of /v1/messages answered 200. */
  readonly answered: ReceivedRequest[]
  readonly batches: MessageBatchRoutes['batches']
  close(): Promise<void>
}

/** The errors' types by status, as Anthropic names them. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}

/**
 * Starts a server speaking Anthropic's Messages API (`/v1/messages`, `/v1/models`) and its Message
 * Batches (anthropic-batch-server.ts), answering each question with the label a simulated model
 * picks, as text, and its usage.
 */
export async function startAnthropicServer(options: AnthropicServerOptions = {}): Promise<AnthropicServer> {
  const requests: ReceivedRequest[] = []
  const answered: ReceivedRequest[] = []
  let url = ''
  const counted = { ...options, draws: new Map<string, number>() }
  const routes = createMessageBatchRoutes(
    () => url,
    (body) => messageReply(body, counted),
    options.batch,
  )
  const server = createServer((req, res) => void handle(req, res))
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: parse(Buffer.concat(chunks).toString()),
    }
    const index = requests.push(request) - 1
    const reply = replyTo(request, index, counted, routes)
    if (reply.status === 200 && request.path === '/v1/messages') answered.push(request)
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests,
    answered,
    batches: routes.batches,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

function replyTo(
  request: ReceivedRequest,
  index: number,
  options: AnthropicServerOptions & { readonly draws: Map<string, number> },
  routes: MessageBatchRoutes,
): ScriptedReply {
  if (options.expectKey !== undefined && request.headers['x-api-key'] !== options.expectKey)
    return failure(401, `invalid x-api-key ${String(request.headers['x-api-key'])}`)
  if (request.headers['anthropic-version'] !== '2023-06-01') return failure(400, 'anthropic-version: header required')
  const scripted = options.reply?.(request, index)
  if (scripted) return scripted
  if (request.method === 'GET' && request.path.startsWith('/v1/models'))
    return { status: 200, body: modelList(options.models ?? ['claude-haiku-4-5-20251001']) }
  if (isMessageBatchRoute(request.path)) return routes.reply(request)
  if (request.method !== 'POST' || request.path !== '/v1/messages') return failure(404, 'not found')
  if (index < (options.failTimes ?? 0)) return failure(options.status ?? 529, 'Overloaded', options.retryAfter)
  return messageReply(request.body, options)
}

/**
 * The reply to one Messages body: the simulated model's label as text (`drawn`'s at a temperature above 0), or 400 for
 * a body it cannot take.
 */
export function messageReply(
  body: any,
  options: AnthropicServerOptions & { readonly draws?: Map<string, number> } = {},
): ScriptedReply {
  if (typeof body?.model !== 'string' || !Array.isArray(body.messages) || !Number.isInteger(body.max_tokens))
    return failure(400, 'model, messages and max_tokens: field required')
  const prompt = body.messages.map((m: { content: string }) => m.content).join('\n')
  const labels = promptLabels(prompt)
  const p = simulatedProbabilities(prompt, Math.max(1, labels.length))
  const chosen = (options.text ?? (() => labels[p.indexOf(Math.max(...p))] ?? ''))(labels, prompt)
  if (body.temperature !== undefined && !(body.temperature >= 0 && body.temperature <= 1))
    return failure(400, 'temperature: must be between 0 and 1')
  const text = body.temperature > 0 && options.drawn ? options.drawn(labels, draw(options, prompt)) : chosen
  return {
    status: 200,
    body: {
      id: 'msg_local',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens(body), output_tokens: 3 },
    },
  }
}

/** The input tokens the server counts for a Messages body: a quarter of its system and messages' characters, plus 10. */
export function inputTokens(body: any): number {
  const text = [body.system ?? '', ...body.messages.map((m: { content: string }) => m.content)].join('\n')
  return Math.ceil(text.length / 4) + 10
}

function modelList(ids: readonly string[]): object {
  return {
    data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-10-01T00:00:00Z' })),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
  }
}

function failure(status: number, message: string, retryAfter?: string): ScriptedReply {
  const reply = { status, body: error(ERROR_TYPES[status] ?? 'api_error', message) }
  return retryAfter === undefined ? reply : { ...reply, headers: { 'retry-after': retryAfter } }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
