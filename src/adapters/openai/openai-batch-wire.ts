import type { BatchItem, BatchPack, BatchState, BatchStatus } from '../../ports/engine.ts'
import { EngineError } from '../../errors.ts'
import { isRecord, shown, unusable, wholeCount } from '../engine-answer.ts'
import { engineMessage } from '../engine-http.ts'
import { toChatRequest } from './openai-wire.ts'

/** The endpoint each line of a batch asks, relative to the provider's root: the per-request lane's. */
export const BATCH_ENDPOINT = '/v1/chat/completions'

/** The metadata key a batch's tag is kept under. */
export const TAG_KEY = 'judge_batch'

/** The provider's limits on one batch: OpenAI's are 50,000 requests and an input file of 200 MB. */
export interface BatchLimits {
  readonly maxRequests: number
  readonly maxBytes: number
}

/** OpenAI's limits per batch. */
export const OPENAI_BATCH_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 }

const STATES: readonly BatchState[] = [
  'validating',
  'in_progress',
  'finalizing',
  'completed',
  'failed',
  'expired',
  'cancelling',
  'cancelled',
]

const KEY = /^[A-Za-z0-9_-]{1,48}$/

/** Throws unless an item's key can name its requests in either provider's custom ids: 1 to 48 of [A-Za-z0-9_-]. */
export function checkItemKey(item: BatchItem): void {
  if (!KEY.test(item.key)) throw new Error(`a batch item's key must match ${KEY.source}, not ${shown(item.key)}`)
}

/** What joins an item's key and a question's index in a custom id. */
export const ID_SEPARATOR = ':'

/** The custom id of question `index` of an item: `key:index`. */
export function customId(key: string, index: number): string {
  return `${key}${ID_SEPARATOR}${index}`
}

/**
 * The input file's lines of one item, one per question: `{"custom_id", "method": "POST", "url",
 * "body"}`, whose body is the very request the per-request lane posts.
 */
export function itemLines(item: BatchItem): string[] {
  checkItemKey(item)
  const { model, state, questions } = item.request
  return questions.map(
    (q, i) =>
      `{"custom_id":${JSON.stringify(customId(item.key, i))},"method":"POST","url":"${BATCH_ENDPOINT}",` +
      `"body":${JSON.stringify(toChatRequest(model, state, q))}}`,
  )
}

/**
 * Items in packs that each fit one batch, in order: a pack ends where the next item's lines would
 * pass either limit, and an item's lines stay together. An item over a limit alone is an error.
 * `linesOf` writes an item's provider requests (OpenAI's input file lines by default); each line is
 * written to be measured and let go, so that packing holds no text.
 */
export function packItems(
  items: readonly BatchItem[],
  limits: BatchLimits,
  linesOf: (item: BatchItem) => string[] = itemLines,
): BatchPack[] {
  const packs: BatchPack[] = []
  let open: { items: BatchItem[]; lines: number; bytes: number } = { items: [], lines: 0, bytes: 0 }
  const close = () => {
    if (open.items.length > 0) packs.push(open)
    open = { items: [], lines: 0, bytes: 0 }
  }
  for (const item of items) {
    const lines = linesOf(item)
    const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)
    if (lines.length > limits.maxRequests || bytes > limits.maxBytes)
      throw new EngineError(
        `batch item ${item.key} takes ${lines.length} requests and ${bytes} bytes, over a batch's limit of ` +
          `${limits.maxRequests} requests and ${limits.maxBytes} bytes`,
        null,
      )
    if (open.lines + lines.length > limits.maxRequests || open.bytes + bytes > limits.maxBytes) close()
    open.items.push(item)
    open.lines += lines.length
    open.bytes += bytes
  }
  close()
  return packs
}

/** A pack's input file: each item's lines, each ended by a newline, as the parts of the upload's Blob. */
export function packLines(items: readonly BatchItem[], linesOf: (item: BatchItem) => string[] = itemLines): string[] {
  return items.flatMap((item) => linesOf(item).map((line) => `${line}\n`))
}

/**
 * A batch object as the port's status: `{"id", "status", "request_counts": {"total", "completed",
 * "failed"}, "input_file_id", "output_file_id", "error_file_id", "metadata", "errors": {"data":
 * [{"code", "message", "line"}]}}`; an object without an id or a known status is unusable.
 */
export function toBatchStatus(body: Record<string, unknown>): BatchStatus {
  const state = STATES.find((s) => s === body.status)
  if (typeof body.id !== 'string' || body.id === '') throw unusable(`the batch's field "id" is ${shown(body.id)}`)
  if (!state) throw unusable(`batch ${body.id}: field "status" is ${shown(body.status)}`)
  const counts = isRecord(body.request_counts) ? body.request_counts : {}
  return {
    id: body.id,
    state,
    total: requestCount(counts.total),
    completed: requestCount(counts.completed),
    failed: requestCount(counts.failed),
    inputFileId: typeof body.input_file_id === 'string' ? body.input_file_id : '',
    outputFileId: fileId(body.output_file_id),
    errorFileId: fileId(body.error_file_id),
    tag: tagOf(body),
    error: batchErrors(body.errors),
  }
}

/** The tag a batch object carries in its metadata, or null. */
export function tagOf(body: Record<string, unknown>): string | null {
  const tag = isRecord(body.metadata) ? body.metadata[TAG_KEY] : undefined
  return typeof tag === 'string' ? tag : null
}

/** One line of an output or error file: the answer's body, or why the request has none. */
export type LineResult =
  | { readonly customId: string; readonly ok: true; readonly body: Record<string, unknown> }
  | { readonly customId: string; readonly ok: false; readonly reason: string }

/**
 * Reads one line of an output or error file: `{"custom_id", "response": {"status_code", "body"},
 * "error": {"code", "message"}}`. A 200 with an object body is an answer; `batch_expired` is
 * "expired", `batch_cancelled` "cancelled", any other error or status "failed: <code> <message>".
 * Null for a line without a custom id (a blank line, or one not JSON).
 */
export function readResultLine(line: string): LineResult | null {
  const read = customIdLine(line)
  if (read === null) return null
  const { customId, line: parsed } = read
  const response = isRecord(parsed.response) ? parsed.response : null
  const error = isRecord(parsed.error) ? parsed.error : null
  if (error) return { customId, ok: false, reason: errorReason(error) }
  const status = response?.status_code
  if (status === 200 && isRecord(response?.body)) return { customId, ok: true, body: response.body }
  const said = response?.body ?? null
  const words = said === null ? 'no message' : engineMessage(JSON.stringify(said), 'no message')
  return { customId, ok: false, reason: `failed: ${typeof status === 'number' ? status : 'no status'} ${words}` }
}

/** A result line's custom id and the line as a JSON object; null for a line without one (blank, not JSON). */
export function customIdLine(
  line: string,
): { readonly customId: string; readonly line: Record<string, unknown> } | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(line)
  } catch {
    return null
  }
  return isRecord(parsed) && typeof parsed.custom_id === 'string' ? { customId: parsed.custom_id, line: parsed } : null
}

function errorReason(error: Record<string, unknown>): string {
  if (error.code === 'batch_expired') return 'expired'
  if (error.code === 'batch_cancelled') return 'cancelled'
  const code = typeof error.code === 'string' && error.code !== '' ? error.code : 'error'
  return `failed: ${code} ${typeof error.message === 'string' ? error.message : 'no message'}`
}

function batchErrors(errors: unknown): string | null {
  const data = isRecord(errors) && Array.isArray(errors.data) ? errors.data.filter(isRecord) : []
  if (data.length === 0) return null
  return data
    .map((e) => {
      const words = [e.code, e.message].filter((w) => typeof w === 'string' && w !== '').join(' ')
      return typeof e.line === 'number' ? `${words} (line ${e.line})` : words
    })
    .join('; ')
}

function fileId(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/** A provider's request count: a whole number of at least 0, else 0. */
export function requestCount(value: unknown): number {
  return wholeCount(value) ?? 0
}
