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
import { samplesFor, type Sampling } from '../sampled-answer.ts'
import { MESSAGES, toMessagesRequest } from './anthropic-wire.ts'

/** Anthropic's limits per batch: 100,000 requests and 256 MB (read as 256,000,000 bytes, the smaller reading). */
export const ANTHROPIC_BATCH_LIMITS: BatchLimits = { maxRequests: 100_000, maxBytes: 256_000_000 }

/** What joins an item's key and a question's index in a custom id. */
const ID_SEPARATOR = '_'

/** Sampling that asks each question once, unless an item's `samples` says otherwise. */
const NO_SAMPLING: Sampling = { samples: 1, temperature: 1 }

/**
 * The custom id of question `index` of an item: `key_index`, within Anthropic's [a-zA-Z0-9_-]{1,64}; of its sample
 * `sample` (from 0) of k, `key_indexs<sample>of<k>`.
 */
export function customId(key: string, index: number, sample?: { readonly at: number; readonly of: number }): string {
  return `${key}${ID_SEPARATOR}${index}${sample ? `s${sample.at}of${sample.of}` : ''}`
}

/**
 * An item's requests: `{"custom_id", "params"}`, whose params are the per-request lane's body; one per question, or,
 * with k > 1 (the item's `samples`, else the lane's), k per question at the sampling temperature, as that lane asks.
 */
export function itemRequests(item: BatchItem, sampling: Sampling = NO_SAMPLING): string[] {
  checkItemKey(item)
  const { model, state, questions } = item.request
  const k = samplesFor(item.request, sampling)
  if (k === 1)
    return questions.map((q, i) =>
      JSON.stringify({ custom_id: customId(item.key, i), params: toMessagesRequest(model, state, q) }),
    )
  return questions.flatMap((q, i) => {
    const params = toMessagesRequest(model, state, q, sampling.temperature)
    return Array.from({ length: k }, (_, at) =>
      JSON.stringify({ custom_id: customId(item.key, i, { at, of: k }), params }),
    )
  })
}

/** Items in packs that each fit one batch, as the OpenAI lane packs them (each request's bytes with a separator). */
export function packRequests(
  items: readonly BatchItem[],
  limits: BatchLimits,
  sampling: Sampling = NO_SAMPLING,
): BatchPack[] {
  return packItems(items, limits, (item) => itemRequests(item, sampling))
}

/**
 * A pack's text: the very body of `POST /v1/messages/batches`, `{"requests": [...]}`, since Anthropic
 * takes no uploaded file.
 */
export function packBody(pack: BatchPack, sampling: Sampling = NO_SAMPLING): string {
  return `{"requests":[${pack.items.flatMap((item) => itemRequests(item, sampling)).join(',')}]}`
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
