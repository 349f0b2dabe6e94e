import { DEFAULT_SAMPLE_TEMPERATURE, DEFAULT_SAMPLES } from '../core/engine-kinds.ts'
import type { Distribution, Question } from '../core/types.ts'
import type { EngineRequest } from '../ports/engine.ts'
import type { QuestionAnswer } from './openai/openai-result.ts'

/** How a chat engine samples a model that gives no probabilities: k answers per question, at a temperature. */
export interface Sampling {
  /** k (ENGINE_SAMPLES); 1 asks once at temperature 0. */
  readonly samples: number
  /** ENGINE_SAMPLE_TEMPERATURE, above 0 and at most 2. */
  readonly temperature: number
}

/** What an engine's options may say of sampling; the defaults (5 answers at temperature 1) fill the rest. */
export interface SamplingOptions {
  /** ENGINE_SAMPLES; default 5. */
  readonly samples?: number
  /** ENGINE_SAMPLE_TEMPERATURE; default 1. */
  readonly sampleTemperature?: number
}

/** An engine's sampling from its options. */
export function samplingOf(options: SamplingOptions): Sampling {
  return {
    samples: options.samples ?? DEFAULT_SAMPLES,
    temperature: options.sampleTemperature ?? DEFAULT_SAMPLE_TEMPERATURE,
  }
}

/** k for a request: the spec's `samples:` when it sets one, else the engine's setting. */
export function samplesFor(request: Pick<EngineRequest, 'samples'>, sampling: Sampling): number {
  return request.samples ?? sampling.samples
}

/**
 * One question's k sampled answers as one answer: each label's share of the k answers (an answer whose text begins
 * several labels counts for each evenly), the usage and requests summed over them and over `spent`, answers asked
 * beside them that are not samples (the deterministic answer that showed the model gives no log probabilities).
 */
export function pooled(
  question: Question,
  samples: readonly QuestionAnswer[],
  spent: readonly QuestionAnswer[] = [],
): QuestionAnswer {
  const all = [...spent, ...samples]
  const share = (label: string) => samples.reduce((sum, s) => sum + s.answer.distribution[label], 0)
  const distribution: Distribution = Object.fromEntries(
    question.labels.map((label) => [label, Math.round((share(label) / samples.length) * 1e6) / 1e6]),
  )
  return {
    answer: {
      model: all.find((a) => a.answer.model !== null)?.answer.model ?? null,
      distribution,
      optionMass: null,
      source: 'text',
      promptTokens: all.reduce((sum, a) => sum + (a.answer.promptTokens ?? a.estimated), 0),
      completionTokens: all.reduce((sum, a) => sum + (a.answer.completionTokens ?? 1), 0),
    },
    estimated: all.reduce((sum, a) => sum + a.estimated, 0),
    requests: all.reduce((sum, a) => sum + (a.requests ?? 1), 0),
    samples: samples.length,
  }
}
