import type { BatchItem, BatchPack, BatchState, BatchStatus } from '../../ports/engine.ts'
import { isRecord, shown, unusable } from '../engine-answer.ts'
import { lineReading, type LineReading } from '../openai/openai-batch-collect.ts'
import {
  checkItemKey,
  customIdLine,
  packItems,
  requestCount,
  type BatchLimits,
  type LineResult,
} from '../openai/openai-batch-wire.ts'
import { MESSAGES, toMessagesRequest } from './anthropic-wire.ts'

/** Anthropic's limits per batch: 100,000 requests and 256 MB (read as 256,000,000 bytes, the smaller reading). */
export const ANTHROPIC_BATCH_LIMITS: BatchLimits = { maxRequests: 100_000, maxBytes: 256_000_000 }

/** What joins an item's key and a question's index in a custom id. */
const ID_SEPARATOR = '_'

/** The custom id of question `index` of an item: `key_index`, within Anthropic's [a-zA-Z0-9_-]{1,64}. */
export function customId(key: string, index: number): string {
  return `${key}${ID_SEPARATOR}${index}`
}

/** An item's requests, one per question: `{"custom_id", "params"}`, whose params are the per-request lane's body. */
export function itemRequests(item: BatchItem): string[] {
  checkItemKey(item)
  const { model, state, questions } = item.request
  return questions.map((q, i) =>
    JSON.stringify({ custom_id: customId(item.key, i), params: toMessagesRequest(model, state, q) }),
  )
}

/** Items in packs that each fit one batch, as the OpenAI lane packs them (each request's bytes with a separator). */
export function packRequests(items: readonly BatchItem[], limits: BatchLimits): BatchPack[] {
  return packItems(items, limits, itemRequests)
}

/**
 * A pack's text: the very body of `POST /v1/messages/batches`, `{"requests": [...]}`, since Anthropic
 * takes no uploaded file.
 */
export function packBody(pack: BatchPack): string {
  return `{"requests":[${pack.items.flatMap(itemRequests).join(',')}]}`
}

/**
 * A message batch as the port's status: `{"id", "processing_status": "in_progress" | "canceling" |
 * "ended", "request_counts": {"processing", "succeeded", "errored", "canceled", "expired"},
 * "results_url"}`. An ended batch is completed, or cancelled or expired when every request was;
 * failed counts the errored, cancelled and expired requests. There is no metadata, so no tag.
 */
export function toBatchStatus(body: Record<string, unknown>): BatchStatus {
  if (typeof body.id !== 'string' || body.id === '') throw unusable(`the batch's field "id" is ${shown(body.id)}`)
  const counts = isRecord(body.request_counts) ? body.request_counts : {}
  const [processing, succeeded, errored, canceled, expired] = [
    'processing',
    'succeeded',
    'errored',
    'canceled',
    'expired',
  ].map((name) => requestCount(counts[name]))
  const total = processing + succeeded + errored + canceled + expired
  return {
    id: body.id,
    state: stateOf(body, total, canceled, expired),
    total,
    completed: succeeded,
    failed: errored + canceled + expired,
    inputFileId: '',
    outputFileId: typeof body.results_url === 'string' && body.results_url !== '' ? body.results_url : null,
    errorFileId: null,
    tag: null,
    error: null,
  }
}

function stateOf(body: Record<string, unknown>, total: number, canceled: number, expired: number): BatchState {
  const status = body.processing_status
  if (status === 'in_progress') return 'in_progress'
  if (status === 'canceling') return 'cancelling'
  if (status !== 'ended') throw unusable(`batch ${body.id}: field "processing_status" is ${shown(status)}`)
  if (total > 0 && canceled === total) return 'cancelled'
  if (total > 0 && expired === total) return 'expired'
  return 'completed'
}

/**
 * Reads one line of a batch's results: `{"custom_id", "result": {"type": "succeeded", "message"} |
 * {"type": "errored", "error": {"type": "error", "error": {"type", "message"}}} | {"type":
 * "canceled"} | {"type": "expired"}}`. Null for a line without a custom id (a blank line, or one not JSON).
 */
export function readResultLine(line: string): LineResult | null {
  const read = customIdLine(line)
  if (read === null) return null
  const { customId, line: parsed } = read
  const result = isRecord(parsed.result) ? parsed.result : {}
  if (result.type === 'succeeded' && isRecord(result.message)) return { customId, ok: true, body: result.message }
  if (result.type === 'expired') return { customId, ok: false, reason: 'expired' }
  if (result.type === 'canceled') return { customId, ok: false, reason: 'cancelled' }
  return { customId, ok: false, reason: `failed: ${errorWords(result.error)}` }
}

/** Anthropic's result lines: `key_index` custom ids, messages as bodies. */
export const ANTHROPIC_READING: LineReading = lineReading(ID_SEPARATOR, MESSAGES, readResultLine)

/** An errored result's `{"type": "error", "error": {"type", "message"}}` as `<type> <message>`. */
function errorWords(error: unknown): string {
  const inner = isRecord(error) && isRecord(error.error) ? error.error : isRecord(error) ? error : {}
  const type = typeof inner.type === 'string' && inner.type !== '' ? inner.type : 'error'
  return `${type} ${typeof inner.message === 'string' ? inner.message : 'no message'}`
}
