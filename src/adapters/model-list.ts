import { EngineError } from '../errors.ts'
import type { ListedModel } from '../ports/engine.ts'
import { isRecord, jsonObject, shown, unusable } from './engine-answer.ts'
import { failureError, getOnce, type HttpTarget } from './engine-http.ts'

/**
 * Gets an engine's list of models once from `url` and reads it; a failure is the EngineError the
 * port rejects with, the key scrubbed from it.
 */
export async function fetchModelList(
  target: HttpTarget,
  url: string,
  secret: string | null,
  signal?: AbortSignal,
): Promise<ListedModel[]> {
  const outcome = await getOnce(target, url, signal)
  if (!outcome.ok) throw failureError(outcome.failure, secret)
  try {
    return parseModelList(outcome.value)
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    throw failureError({ status: null, message: error.message }, secret)
  }
}

/**
 * The models of a list-models answer, in the order given: System One's `{"models": [{"name",
 * "description", "release_date"}]}` (description and date optional), or the OpenAI-compatible
 * `{"data": [{"id", "created"}]}` that vLLM, llama.cpp, Ollama and gateways answer with, or
 * Anthropic's `{"data": [{"id", "display_name", "created_at"}]}`.
 */
export function parseModelList(text: string): ListedModel[] {
  const body = jsonObject(text)
  if (Array.isArray(body.models)) return body.models.map((m, i) => systemOneModel(m, i))
  if (Array.isArray(body.data)) return body.data.map((m, i) => openAiModel(m, i))
  throw unusable(`a list of models needs "models" or "data", not ${shown(body)}`)
}

function systemOneModel(value: unknown, i: number): ListedModel {
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '')
    throw unusable(`models[${i}] is ${shown(value)}, not a model with a name`)
  return { name: value.name, description: text(value.description), releaseDate: text(value.release_date) }
}

function openAiModel(value: unknown, i: number): ListedModel {
  if (!isRecord(value) || typeof value.id !== 'string' || value.id === '')
    throw unusable(`data[${i}] is ${shown(value)}, not a model with an id`)
  // `created` is in seconds since the epoch; some servers send 0 or nothing. Anthropic's list gives
  // `created_at` (RFC 3339) and `display_name` instead.
  const created =
    typeof value.created === 'number' && value.created > 0
      ? new Date(value.created * 1000).toISOString().slice(0, 10)
      : (text(value.created_at)?.slice(0, 10) ?? null)
  return { name: value.id, description: text(value.description) ?? text(value.display_name), releaseDate: created }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}
