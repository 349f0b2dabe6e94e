import type { BatchLane } from '../../ports/engine.ts'
import { laneSettings, sentText, type BatchLaneOptions, type BatchTarget } from '../batch-lane.ts'
import { jsonObject } from '../engine-answer.ts'
import { sendTo, type Posted } from '../engine-http.ts'
import { sendRepeated } from '../engine-repeat.ts'
import { downloadLines, gatherOutcomes } from '../openai/openai-batch-collect.ts'
import type { Sampling } from '../sampled-answer.ts'
import {
  ANTHROPIC_BATCH_LIMITS,
  ANTHROPIC_READING,
  packBody,
  packRequests,
  toBatchStatus,
} from './anthropic-batch-wire.ts'

/** Options of the Anthropic bulk lane: by default Anthropic's limits, 100,000 requests and 256 MB a batch. */
export type AnthropicBatchOptions = BatchLaneOptions

/**
 * The bulk lane over Anthropic's Message Batches (docs/engine.md, Anthropic): the per-request
 * lane's bodies sent in one `POST /v1/messages/batches`, polled and cancelled there, and the results
 * read line by line from `/v1/messages/batches/{id}/results`. With k > 1 (`sampling`, or an item's
 * `samples`) each question is k requests at the sampling temperature, whose custom ids say which
 * sample of how many, so that the results make the per-request lane's sampled answer whatever k is
 * then. There is no file: `upload` writes a pack's text, the creation's body, and hands it back as
 * the "file id" that `create` sends. A batch has no metadata, so `find` cannot tell judge's batches
 * apart and finds none. The polls and the download are tried again after a transient failure, as
 * the OpenAI lane's reads.
 */
export function createAnthropicBatch(at: BatchTarget, options: AnthropicBatchOptions, sampling: Sampling): BatchLane {
  const { limits, transfer, repeat } = laneSettings(at, options, ANTHROPIC_BATCH_LIMITS)
  const status = async (posted: Promise<Posted>) => toBatchStatus(jsonObject(sentText(await posted, at.apiKey)))
  const batches = `${at.root}/v1/messages/batches`
  const one = (id: string) => `${batches}/${encodeURIComponent(id)}`
  return {
    pack: (items) => packRequests(items, limits, sampling),
    upload: async (pack) => packBody(pack, sampling),
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
        sentText(await downloadLines(transfer, `${one(batch.id)}/results`, gathering, repeat, signal), at.apiKey)
      return gathering.outcomes()
    },
  }
}
