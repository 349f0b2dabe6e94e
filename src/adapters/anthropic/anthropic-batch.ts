import type { BatchLane } from '../../ports/engine.ts'
import { jsonObject } from '../engine-answer.ts'
import { failureError, sendTo, type HttpTarget, type Posted } from '../engine-http.ts'
import { READ_REPEAT, sendRepeated, type Repeat } from '../engine-repeat.ts'
import { downloadLines, gatherOutcomes } from '../openai/openai-batch-collect.ts'
import type { BatchLimits } from '../openai/openai-batch-wire.ts'
import {
  ANTHROPIC_BATCH_LIMITS,
  ANTHROPIC_READING,
  packBody,
  packRequests,
  toBatchStatus,
} from './anthropic-batch-wire.ts'

/** Options of the Anthropic bulk lane. */
export interface AnthropicBatchOptions {
  /** Requests per batch; Anthropic's limit, 100,000, by default. */
  readonly maxRequests?: number
  /** Bytes of a batch's body; Anthropic's limit, 256 MB, by default. */
  readonly maxBytes?: number
  /** Limit of a batch's creation or its results' download, in milliseconds; default 10 minutes. */
  readonly transferTimeoutMs?: number
  /** How a read (a poll, the results' download) is tried again; default READ_REPEAT. */
  readonly repeat?: Repeat
}

/** Where the lane sends: the API root (without its version), the per-request lane's target and key. */
export interface AnthropicBatchTarget {
  readonly root: string
  readonly target: HttpTarget
  readonly apiKey: string | null
}

/**
 * The bulk lane over Anthropic's Message Batches (docs/engine.md, Anthropic): the per-request
 * lane's bodies sent in one `POST /v1/messages/batches`, polled and cancelled there, and the results
 * read line by line from `/v1/messages/batches/{id}/results`. There is no file: `upload` writes a pack's
 * text, the creation's body, and hands it back as the "file id" that `create` sends. A batch has no
 * metadata, so `find` cannot tell judge's batches apart and finds none. The polls and the download are tried
 * again after a transient failure, as the OpenAI lane's reads.
 */
export function createAnthropicBatch(at: AnthropicBatchTarget, options: AnthropicBatchOptions = {}): BatchLane {
  const limits: BatchLimits = {
    maxRequests: options.maxRequests ?? ANTHROPIC_BATCH_LIMITS.maxRequests,
    maxBytes: options.maxBytes ?? ANTHROPIC_BATCH_LIMITS.maxBytes,
  }
  const transfer: HttpTarget = { ...at.target, timeoutMs: options.transferTimeoutMs ?? 600_000 }
  const status = async (posted: Promise<Posted>) => toBatchStatus(jsonObject(valueOf(await posted, at.apiKey)))
  const repeat = options.repeat ?? READ_REPEAT
  const batches = `${at.root}/v1/messages/batches`
  const one = (id: string) => `${batches}/${encodeURIComponent(id)}`
  return {
    pack: (items) => packRequests(items, limits),
    upload: async (pack) => packBody(pack),
    create: (body, _tag, signal) => status(sendTo(transfer, batches, 'POST', body, signal)),
    retrieve: (id, signal) =>
      status(sendRepeated(() => sendTo(at.target, one(id), 'GET', undefined, signal), repeat, signal)),
    cancel: (id, signal) => status(sendTo(at.target, `${one(id)}/cancel`, 'POST', undefined, signal)),
    find: async () => null,
    async collect(batch, items, signal) {
      const gathering = gatherOutcomes(items, ANTHROPIC_READING)
      // The results are read from the configured host, never from a URL the answer names, so that the key goes
      // nowhere else; `results_url` only says that they are ready.
      if (batch.outputFileId !== null)
        valueOf(await downloadLines(transfer, `${one(batch.id)}/results`, gathering, repeat, signal), at.apiKey)
      return gathering.outcomes()
    },
  }
}

/** A send's text, or its failure as the EngineError the port rejects with. */
function valueOf(posted: Posted, apiKey: string | null): string {
  if (!posted.ok) throw failureError(posted.failure, apiKey)
  return posted.value
}
