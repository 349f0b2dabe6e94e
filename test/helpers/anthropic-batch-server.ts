import type { ReceivedRequest, ScriptedReply } from './system-one-server.ts'

/** What becomes of one request of a batch: answered (the default), errored with an error of that type, or not asked. */
export type RequestFate = 'answer' | 'expired' | 'canceled' | { readonly type: string; readonly message: string }

/** How one message batch behaves, by the order it was created in. */
export interface MessageBatchBehaviour {
  /** GET /v1/messages/batches/{id} it takes to end (default 1): `in_progress` until then; 0 ends it as it is created. */
  readonly polls?: number
  /** The fate of request `index` of its body, by its custom id. */
  readonly request?: (customId: string, index: number) => RequestFate | undefined
}

/** A batch the server holds, as the provider keeps it. */
export interface HeldMessageBatch {
  readonly id: string
  readonly requests: readonly { readonly custom_id: string; readonly params: unknown }[]
  readonly behaviour: MessageBatchBehaviour
  status: 'in_progress' | 'canceling' | 'ended'
  polls: number
  results: string | null
  counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number }
}

/** The message batches routes of the local Anthropic server. */
export interface MessageBatchRoutes {
  /** In the order they were created. */
  readonly batches: HeldMessageBatch[]
  reply(request: ReceivedRequest): ScriptedReply
}

/** Whether a request is for the message batches routes. */
export function isMessageBatchRoute(path: string): boolean {
  return /^\/v1\/messages\/batches(\/|\?|$)/.test(path)
}

/**
 * Anthropic's Message Batches over `message`, the reply the server gives one Messages body, so that
 * a request of a batch is answered exactly as the same request sent alone.
 */
export function createMessageBatchRoutes(
  root: () => string,
  message: (body: unknown) => ScriptedReply,
  behaviour: (index: number) => MessageBatchBehaviour = () => ({}),
): MessageBatchRoutes {
  const batches: HeldMessageBatch[] = []
  const end = (batch: HeldMessageBatch, cancelled: boolean) => {
    const lines = batch.requests.map((r, i) => {
      const fate = cancelled ? 'canceled' : (batch.behaviour.request?.(r.custom_id, i) ?? 'answer')
      return JSON.stringify({ custom_id: r.custom_id, result: resultOf(fate, () => message(r.params)) })
    })
    for (const line of lines) batch.counts[countOf(JSON.parse(line).result.type)]++
    batch.counts.processing = 0
    batch.status = 'ended'
    batch.results = lines.join('\n') + '\n'
  }
  const view = (b: HeldMessageBatch) => ({
    id: b.id,
    type: 'message_batch',
    processing_status: b.status,
    request_counts: b.counts,
    created_at: '2026-01-01T00:00:00Z',
    expires_at: '2026-01-02T00:00:00Z',
    ended_at: b.status === 'ended' ? '2026-01-01T01:00:00Z' : null,
    cancel_initiated_at: null,
    archived_at: null,
    results_url: b.results === null ? null : `${root()}/v1/messages/batches/${b.id}/results`,
  })
  const reply = (request: ReceivedRequest): ScriptedReply => {
    const [path, query] = request.path.split('?')
    const [, id, action] = /^\/v1\/messages\/batches(?:\/([^/]+))?(?:\/(\w+))?$/.exec(path) ?? []
    if (request.method === 'POST' && id === undefined) return create(request.body)
    if (request.method === 'GET' && id === undefined) return list(new URLSearchParams(query))
    const batch = batches.find((b) => b.id === id)
    if (!batch) return { status: 404, body: error('not_found_error', `no batch ${id}`) }
    if (request.method === 'POST' && action === 'cancel') {
      if (batch.status === 'in_progress') batch.status = 'canceling'
      return { status: 200, body: view(batch) }
    }
    if (action === 'results')
      return batch.results === null
        ? { status: 404, body: error('not_found_error', 'not ended') }
        : { status: 200, body: batch.results }
    if (batch.status === 'canceling') end(batch, true)
    else if (batch.status === 'in_progress' && ++batch.polls >= (batch.behaviour.polls ?? 1)) end(batch, false)
    return { status: 200, body: view(batch) }
  }
  const create = (body: any): ScriptedReply => {
    if (!Array.isArray(body?.requests) || body.requests.length === 0)
      return { status: 400, body: error('invalid_request_error', 'requests: field required') }
    const index = batches.length
    const batch: HeldMessageBatch = {
      id: `msgbatch_${index + 1}`,
      requests: body.requests,
      behaviour: behaviour(index),
      status: 'in_progress',
      polls: 0,
      results: null,
      counts: { processing: body.requests.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
    }
    batches.push(batch)
    if ((batch.behaviour.polls ?? 1) === 0) end(batch, false)
    return { status: 200, body: view(batch) }
  }
  // Newest first, `limit` a page (default 20), after `after_id`.
  const list = (query: URLSearchParams): ScriptedReply => {
    const all = [...batches].reverse()
    const after = query.get('after_id')
    const start = after === null ? 0 : all.findIndex((b) => b.id === after) + 1
    const page = all.slice(start, start + Number(query.get('limit') ?? 20))
    const more = start + page.length < all.length
    return {
      status: 200,
      body: { data: page.map(view), has_more: more, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null },
    }
  }
  return { batches, reply }
}

function resultOf(fate: RequestFate, answer: () => ScriptedReply): object {
  if (fate === 'expired' || fate === 'canceled') return { type: fate }
  const reply = fate === 'answer' ? answer() : { status: 400, body: error(fate.type, fate.message) }
  return reply.status === 200 ? { type: 'succeeded', message: reply.body } : { type: 'errored', error: reply.body }
}

function countOf(type: string): 'succeeded' | 'errored' | 'canceled' | 'expired' {
  return type === 'succeeded'
    ? 'succeeded'
    : type === 'canceled'
      ? 'canceled'
      : type === 'expired'
        ? 'expired'
        : 'errored'
}

/** An error body as Anthropic writes it. */
export function error(type: string, message: string): object {
  return { type: 'error', error: { type, message } }
}
