import { isAlias } from '../core/model-names.ts'
import { hasJury } from '../core/jury/jurors.ts'
import type { Spec } from '../core/types.ts'
import { UsageError } from '../errors.ts'
import type { Engine } from '../ports/engine.ts'

/** One model of the engine's list, as `judge models` shows it. */
export interface ModelRow {
  readonly name: string
  readonly description: string | null
  readonly release_date: string | null
  /** Whether the name is an alias that moves to newer builds (core/model-names.ts). */
  readonly alias: boolean
  /** The judgments asked with it: their spec's `model:`, else the default model. */
  readonly used_by: readonly string[]
}

/** A model judgments are asked with that the engine does not list. */
export interface UnlistedModel {
  readonly model: string
  readonly used_by: readonly string[]
  /** The judgments whose spec pins it with `model:` (the others take it from the default). */
  readonly pinned_by: readonly string[]
}

/** The engine's models beside the project's: what `judge models` prints and `judge doctor` checks. */
export interface ModelsReport {
  /**
   * The model asked when a spec names none: ENGINE_MODEL (or TYPESAFE_DEFAULT_MODEL), else the engine's; null when
   * there is none (ENGINE=openai without ENGINE_MODEL).
   */
  readonly default_model: string | null
  readonly models: readonly ModelRow[]
  /** Models in use that the engine does not list; empty when the engine answers any model (the simulated one). */
  readonly unlisted: readonly UnlistedModel[]
  /**
   * Whether the list names any build beside its aliases. TypeSafe's has been seen to list only
   * `jev-latest` and `jev-preview`: a pinned build missing from such a list is not known to be gone.
   */
  readonly lists_builds: boolean
}

/** What listing takes: the engine, the default model, and whether the engine answers any model name. */
export interface ModelsInput {
  readonly engine: Engine
  /** Null when there is none: a spec naming no model then asks no model. */
  readonly defaultModel: string | null
  /** The simulated engine answers every model under an id of its own, so nothing is ever unlisted. */
  readonly answersAny: boolean
  /** The judgments marked beside the models they use; null for none (the default model is then the one in use). */
  readonly specs: readonly Spec[] | null
  /** The configured engine's kind (ENGINE): a juror naming it is asked by this engine too. */
  readonly kind?: string
  readonly signal?: AbortSignal
}

/**
 * The engine's list of models (asking no model anything), each marked as an alias or not and with
 * the judgments that use it, then the models in use that the engine does not list. An engine that
 * keeps no list is a UsageError; a failure to list is the engine's EngineError.
 */
export async function engineModels(input: ModelsInput): Promise<ModelsReport> {
  if (!input.engine.models) throw new UsageError('this engine keeps no list of models')
  const listed = await input.engine.models(input.signal)
  const uses = new Map<string, { used: string[]; pinned: string[] }>()
  // Without a project, the default model is the one a run would ask.
  if (input.specs === null && input.defaultModel !== null) uses.set(input.defaultModel, { used: [], pinned: [] })
  for (const spec of input.specs ?? []) {
    for (const { model, pinned } of modelsAsked(spec, input)) {
      const use = uses.get(model) ?? { used: [], pinned: [] }
      uses.set(model, use)
      use.used.push(spec.name)
      if (pinned) use.pinned.push(spec.name)
    }
  }
  const names = new Set(listed.map((m) => m.name))
  return {
    default_model: input.defaultModel,
    models: listed.map((m) => ({
      name: m.name,
      description: m.description,
      release_date: m.releaseDate,
      alias: isAlias(m.name),
      used_by: uses.get(m.name)?.used ?? [],
    })),
    lists_builds: listed.some((m) => !isAlias(m.name)),
    unlisted: input.answersAny
      ? []
      : [...uses]
          .filter(([model]) => !names.has(model))
          .map(([model, use]) => ({ model, used_by: use.used, pinned_by: use.pinned })),
  }
}

/**
 * The models this engine is asked by a spec: its `model:` (pinned) or the default; for a jury, each juror this engine
 * asks (one naming no engine, or this engine's kind), by its model, pinned. A juror on another engine is that engine's.
 */
function modelsAsked(
  spec: Spec,
  input: Pick<ModelsInput, 'defaultModel' | 'kind'>,
): { model: string; pinned: boolean }[] {
  if (!hasJury(spec)) {
    const model = spec.model ?? input.defaultModel
    return model === null ? [] : [{ model, pinned: spec.model !== null }]
  }
  const own = spec.jurors.filter((j) => j.engine === null || j.engine === input.kind)
  return [...new Set(own.map((j) => j.model))].map((model) => ({ model, pinned: true }))
}
