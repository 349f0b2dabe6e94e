import type { Engine } from '../../ports/engine.ts'
import { fetchModelList } from '../model-list.ts'
import { engineTarget, questionLane, type TargetOptions } from '../question-lane.ts'
import { samplingOf, type SamplingOptions } from '../sampled-answer.ts'
import { createOpenAiBatch, type OpenAiBatchOptions } from './openai-batch.ts'
import { CHAT } from './openai-wire.ts'

/** Options of the OpenAI-compatible adapter. */
export interface OpenAiOptions extends TargetOptions, SamplingOptions {
  /** API root including its version, e.g. http://127.0.0.1:8000/v1; the adapter posts to `{url}/chat/completions`. */
  readonly url: string
  /** The model asked when a spec names none: the name the server serves; null for none (every spec names its own). */
  readonly model: string | null
  /** Sent as `Authorization: Bearer …` when given; local servers need none. */
  readonly apiKey?: string | null
  /** The bulk lane's limits and time limit of transfers; OpenAI's limits by default. */
  readonly batch?: OpenAiBatchOptions
}

/**
 * The engine port over an OpenAI-compatible chat completions API with log probabilities (vLLM,
 * llama.cpp's server, Ollama, hosted APIs of that shape): one request per question, each allowed
 * one token, whose top alternatives give the distribution over the labels (docs/engine.md). A model
 * whose answer carries no log probabilities is remembered (or told, `knownWithout`, when the store's
 * answers show it) and, with k (ENGINE_SAMPLES) above 1, asked k times per question at the sampling
 * temperature, p each label's share. The questions of a row are asked at once; one failing cancels
 * the others. Each request is tried once:
 * retries and pacing are the core's. The same requests go in bulk through the provider's Batch API
 * (`batch`, openai-batch.ts).
 */
export function createOpenAi(options: OpenAiOptions): Engine {
  const apiKey = options.apiKey ?? null
  const root = options.url.replace(/\/+$/, '')
  const target = engineTarget(options, apiKey, {
    endpoint: `${root}/chat/completions`,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
  })
  return {
    defaultModel: options.model,
    ...questionLane(target, apiKey, CHAT, samplingOf(options)),
    // GET {url}/models: `{"data": [{"id", "created"}]}`.
    models: (signal) => fetchModelList(target, `${root}/models`, apiKey, signal),
    batch: createOpenAiBatch({ root, target, apiKey }, options.batch),
  }
}
