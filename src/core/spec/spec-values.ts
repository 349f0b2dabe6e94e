import { nearestName } from './nearest-name.ts'
import { SpecError } from '../../errors.ts'

/** A YAML mapping whose keys have been checked to be strings. */
export type YamlMap = ReadonlyMap<string, unknown>

/** The key path of `key` inside `path`: `questions.topic`. */
export function keyOf(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

/** The key path of item `index` of the list at `path`: `state[1]`. */
export function itemOf(path: string, index: number): string {
  return `${path}[${index}]`
}

/** Names a YAML value's kind for messages: `a list`, `the number 3`. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty'
  if (Array.isArray(value)) return 'a list'
  if (value instanceof Map) return 'a mapping'
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`
  return `the ${typeof value} ${String(value)}`
}

/** The value as a mapping with string keys, or a SpecError at `path`. */
export function asMap(value: unknown, file: string, path: string): YamlMap {
  if (!(value instanceof Map)) throw new SpecError(file, path, `must be a mapping, not ${describe(value)}`)
  for (const key of value.keys()) {
    if (typeof key !== 'string') {
      throw new SpecError(file, path, `keys must be text: quote ${String(key)} as "${String(key)}"`)
    }
  }
  return value as YamlMap
}

/** The value as a list, or a SpecError at `path`. */
export function asList(value: unknown, file: string, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new SpecError(file, path, `must be a list, not ${describe(value)}`)
  return value
}

/** The value as text with surrounding white space dropped; empty text is a SpecError. */
export function asText(value: unknown, file: string, path: string): string {
  if (typeof value !== 'string') throw new SpecError(file, path, `must be text, not ${describe(value)}`)
  const text = value.trim()
  if (!text) throw new SpecError(file, path, 'must not be empty')
  return text
}

/** The value as a number from 0 to 1, or a SpecError at `path`. */
export function asUnit(value: unknown, file: string, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new SpecError(file, path, `must be a number from 0 to 1, not ${describe(value)}`)
  }
  return value
}

/** The value under `key`, or undefined when the key is absent or left empty (`key:` or `key: ~`). */
export function optional(map: YamlMap, key: string): unknown {
  const value = map.get(key)
  return value === null ? undefined : value
}

/** The value under `key`; absent or empty is a SpecError naming the key. */
export function required(map: YamlMap, key: string, file: string, path: string, hint = ''): unknown {
  const value = optional(map, key)
  if (value === undefined) throw new SpecError(file, keyOf(path, key), `is required${hint}`)
  return value
}

/** Rejects any key of `map` outside `known`, naming it and listing the known keys. */
export function checkKeys(map: YamlMap, known: readonly string[], file: string, path: string): void {
  for (const key of map.keys()) {
    if (known.includes(key)) continue
    const near = nearestName(key, known)
    const guess = near ? ` (did you mean ${near}?)` : ''
    throw new SpecError(file, keyOf(path, key), `unknown key${guess}; the known keys are ${known.join(', ')}`)
  }
}
