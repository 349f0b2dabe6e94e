import { isSimulated, SIMULATED_DEFAULT_MODEL, SIMULATED_PREFIX } from '../../core/engine-kinds.ts'
import { EngineError } from '../../errors.ts'
import type { Distribution } from '../../core/types.ts'
import type { Engine } from '../../ports/engine.ts'
import { simulatedDistribution, simulatedTokens } from './simulated-answers.ts'

export { SIMULATED_DEFAULT_MODEL, SIMULATED_PREFIX }

/**
 * A stand-in for the decision model (`ENGINE=simulated`): it needs no key and spends nothing, and
 * answers every question with a stable, plausible distribution read off the text. It counts tokens
 * as System One would, so plans and run records show what the real engine would have cost.
 * Its answers are stored and recorded under model ids of its own (`simulated-…`), so they never
 * share a cache key with a real model's, and every run record and page says "simulated".
 *
 * @example
 * const engine = createSimulatedEngine()
 * const answers = await judge('spam.judge.yaml', row, { config, runtime: createRuntime(config, { engine }) })
 */
export function createSimulatedEngine(): Engine {
  return {
    defaultModel: SIMULATED_DEFAULT_MODEL,
    modelId: simulatedModelId,
    spendsNothing: true,
    async ask(request, signal) {
      if (signal?.aborted) throw new EngineError('the engine request was cancelled', null, { cause: signal.reason })
      const distributions: Record<string, Distribution> = {}
      for (const q of request.questions) distributions[q.name] = simulatedDistribution(q, request.state)
      const inputTokens = simulatedTokens(request.state, request.questions.length)
      return { model: simulatedModelId(request.model), distributions, inputTokens, outputTokens: 0 }
    },
    // It answers any model, under an id of its own; its list is the one it answers when none is named.
    async models() {
      return [
        {
          name: SIMULATED_DEFAULT_MODEL,
          description: 'the simulated engine: answers any model name as simulated-<name>, asking nothing',
          releaseDate: null,
        },
      ]
    },
  }
}

/** The id a requested model's simulated answers are kept under: `jev-1.13.0` -> `simulated-jev-1.13.0`. */
export function simulatedModelId(model: string): string {
  return isSimulated(model) ? model : `${SIMULATED_PREFIX}${model}`
}
