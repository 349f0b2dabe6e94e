import type { Engine } from '../../ports/engine.ts'
import { fetchModelList } from '../model-list.ts'
import { engineTarget, questionLane, type TargetOptions } from '../question-lane.ts'
import { samplingOf, type SamplingOptions } from '../sampled-answer.ts'
import { createAnthropicBatch, type AnthropicBatchOptions } from './anthropic-batch.ts'
import { ANTHROPIC_VERSION, MESSAGES } from './anthropic-wire.ts'

/** Options of the Anthropic adapter. */
export interface AnthropicOptions extends TargetOptions, SamplingOptions {
  /** API root without its version, e.g. https://api.anthropic.com; the adapter posts to `{url}/v1/messages`. */
  readonly url: string
  /** The model asked when a spec names none. */
  readonly model: string
  /** Sent as `x-api-key`. */
  readonly apiKey?: string | null
  /** The bulk lane's limits and time limit of transfers; Anthropic's limits by default. */
  readonly batch?: AnthropicBatchOptions
}

/**
 * The engine port over Anthropic's Messages API (docs/engine.md, Anthropic): one request per
 * question, whose text names a label. There are no log probabilities: each question is asked k times
 * (ENGINE_SAMPLES, a spec's `samples:`) at the sampling temperature, p each label's share of the k
 * answers; with k = 1 once at temperature 0, the label named getting probability 1. The questions of
 * a row are asked at once; one failing cancels the others. Each
 * request is tried once: retries and pacing are the core's. The same requests go in bulk through
 * Message Batches (`batch`, anthropic-batch.ts).
 */
export function createAnthropic(options: AnthropicOptions): Engine {
  const apiKey = options.apiKey ?? null
  const root = options.url.replace(/\/+$/, '')
  const target = engineTarget(options, apiKey, {
    endpoint: `${root}/v1/messages`,
    headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    requestIdHeader: 'request-id',
  })
  const sampling = samplingOf(options)
  return {
    defaultModel: options.model,
    ...questionLane(target, apiKey, MESSAGES, sampling),
    // GET {url}/v1/models: `{"data": [{"id", "display_name", "created_at"}], "has_more"}`; 1,000 is a page's most.
    models: (signal) => fetchModelList(target, `${root}/v1/models?limit=1000`, apiKey, signal),
    batch: createAnthropicBatch({ root, target, apiKey }, options.batch ?? {}, sampling),
  }
}
