import { EngineError } from '../errors.ts'

/** The error of an engine's answer that cannot be read, saying what is wrong with it. */
export function unusable(problem: string): EngineError {
  return new EngineError(`the engine's answer is unusable: ${problem}`, null)
}

/** The body of an engine's answer as a JSON object, or an EngineError saying what it is instead. */
export function jsonObject(text: string): Record<string, unknown> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw unusable(`the body is not JSON (it starts ${JSON.stringify(text.slice(0, 60))})`)
  }
  if (!isRecord(body)) throw unusable(`the body is ${shown(body)}, not a JSON object`)
  return body
}

/** A value of an engine's answer as a message shows it: JSON cut to 60 characters, or `missing`. */
export function shown(value: unknown): string {
  if (value === undefined) return 'missing'
  const json = JSON.stringify(value)
  return json.length > 60 ? `${json.slice(0, 57)}...` : json
}

/** Whether a value of a parsed JSON body is an object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A count of an engine's answer (tokens, requests): a whole number from 0, or null for anything else. */
export function wholeCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}
