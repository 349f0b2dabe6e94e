import { basename, dirname, isAbsolute, resolve } from 'node:path'
import { SpecError } from '../../errors.ts'
import { shortHash } from '../hash.ts'
import { parseAct } from './spec-act.ts'
import { parseDataFormat } from './spec-data-format.ts'
import { parseQuestions } from './spec-questions.ts'
import { parseReviewPlan } from './spec-review.ts'
import { asList, asMap, asText, asUnit, checkKeys, describe, itemOf, keyOf, optional, required } from './spec-values.ts'
import type { YamlMap } from './spec-values.ts'
import { readYaml } from './spec-yaml.ts'
import { ENGINE_KINDS } from '../engine-kinds.ts'
import type { Juror, Spec, StateColumn } from '../types.ts'

/** Judgment names: lowercase letters, digits, `_` and `-`. */
export const JUDGMENT_NAME = /^[a-z0-9_-]+$/

/** The file name endings of spec files. */
export const SPEC_SUFFIX = /\.judge\.ya?ml$/

/**
 * The margin below which an answer is unsure when the spec sets no `unsure_below`: for yes/no, a
 * probability under 0.6. Low enough that the unsure stratum stays a minority of most questions,
 * high enough that a new project's queue shows all three kinds.
 */
export const DEFAULT_UNSURE_BELOW = 0.2

/**
 * The share of reviewed random-sample rows offered to a second reviewer when the spec sets no
 * `double_review`: about one row in ten, enough for an agreement figure between people within a
 * few hundred reviews, at a tenth more review work.
 */
export const DEFAULT_DOUBLE_REVIEW = 0.1

/**
 * The median option mass below which a run says a question does not fit its rows, when the spec
 * sets no `min_fit`: under half of the model's next-token probability on the offered labels means
 * that, for a typical row, the model would rather have answered something else.
 */
export const DEFAULT_MIN_FIT = 0.5

/** The keys a spec may hold, in the order the documentation lists them. */
export const SPEC_KEYS = [
  'name',
  'model',
  'models',
  'samples',
  'state',
  'questions',
  'act',
  'key',
  'key_sample',
  'reviews',
  'data',
  'delimiter',
  'columns',
  'anchors',
  'unsure_below',
  'min_accuracy',
  'min_fit',
  'double_review',
  'accuracy_target',
  'allocation',
  'retain_days',
] as const

/**
 * The keys whose values name files, resolved against the spec's folder: the one list the server's
 * folder confinement reads (src/http/paths.ts), so that a key added here is confined there.
 */
export const FILE_KEYS = ['key', 'reviews', 'data', 'anchors'] as const satisfies readonly (keyof Spec &
  (typeof SPEC_KEYS)[number])[]

/** A key of FILE_KEYS. */
export type FileKey = (typeof FILE_KEYS)[number]

// `other.question`: exactly one dot between a judgment name and a question name.
const REF = /^([a-z0-9_-]+)\.([a-z0-9_]+)$/

/** Parses and validates the text of the spec file at absolute path `file`; reads nothing. */
export function parseSpec(text: string, file: string): Spec {
  const value = readYaml(text, file)
  if (!(value instanceof Map)) {
    throw new SpecError(file, '', `a spec must be a mapping of keys (${SPEC_KEYS.join(', ')}), not ${describe(value)}`)
  }
  const root = asMap(value, file, '')
  checkKeys(root, SPEC_KEYS, file, '')
  const name = parseName(optional(root, 'name'), file)
  const choice = parseModelChoice(root, file)
  const state = parseState(required(root, 'state', file, ''), file)
  const questions = parseQuestions(required(root, 'questions', file, ''), file)
  const act = parseAct(optional(root, 'act'), questions, file)
  const dir = dirname(file)
  const files = Object.fromEntries(FILE_KEYS.map((key) => [key, specPath(root, key, dir, file)])) as Record<
    FileKey,
    string | null
  >
  return {
    name,
    file,
    ...choice,
    state,
    questions,
    act,
    ...files,
    reviews: files.reviews ?? resolve(dir, `${name}.reviews.csv`),
    dataFormat: parseDataFormat(root, file),
    keySample: keySample(optional(root, 'key_sample'), file),
    unsureBelow: unit(root, 'unsure_below', file) ?? DEFAULT_UNSURE_BELOW,
    minAccuracy: unit(root, 'min_accuracy', file),
    minFit: unit(root, 'min_fit', file) ?? DEFAULT_MIN_FIT,
    doubleReview: unit(root, 'double_review', file) ?? DEFAULT_DOUBLE_REVIEW,
    ...parseReviewPlan(root, file),
    retainDays: retainDays(optional(root, 'retain_days'), file),
    hash: shortHash(text),
  }
}

/** The name a spec file gets when it sets none: its file name without `.judge.yaml`. */
export function defaultName(file: string): string {
  return basename(file).replace(SPEC_SUFFIX, '')
}

function parseName(value: unknown, file: string): string {
  const rule = 'lowercase letters, digits, _ and - ([a-z0-9_-]+)'
  if (value === undefined) {
    const name = defaultName(file)
    if (validName(name)) return name
    const problem = `the file name gives the name "${name}", which is not ${rule}; set name: or rename the file`
    throw new SpecError(file, 'name', problem)
  }
  if (typeof value !== 'string' || !validName(value)) {
    throw new SpecError(file, 'name', `must be ${rule}, not ${describe(value)}`)
  }
  return value
}

// `__proto__` passes the pattern but would reach an object's prototype wherever names are keys.
function validName(name: string): boolean {
  return JUDGMENT_NAME.test(name) && name !== '__proto__'
}

function parseState(value: unknown, file: string): StateColumn[] {
  const list = asList(value, file, 'state')
  if (list.length === 0) throw new SpecError(file, 'state', 'needs at least one column')
  const seen = new Set<string>()
  return list.map((item, i) => {
    const path = itemOf('state', i)
    if (typeof item !== 'string' || item === '') {
      throw new SpecError(file, path, `must be a column name, not ${describe(item)}`)
    }
    if (seen.has(item)) throw new SpecError(file, path, `the column "${item}" is listed twice`)
    if (item === '__proto__')
      throw new SpecError(file, path, 'the column "__proto__" cannot be read from a row: rename the column')
    seen.add(item)
    const ref = REF.exec(item)
    return ref && validName(ref[1]) ? { name: item, ref: { judgment: ref[1], question: ref[2] } } : { name: item }
  })
}

// Paths are relative to the spec's folder, so a project folder can move as a whole.
function specPath(root: YamlMap, key: string, dir: string, file: string): string | null {
  const value = optional(root, key)
  if (value === undefined) return null
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SpecError(file, key, `must be a file path, not ${describe(value)}`)
  }
  if (value.includes('\0')) throw new SpecError(file, key, 'must not contain a NUL byte')
  if (isAbsolute(value)) throw new SpecError(file, key, `must be relative to the spec's folder, not ${value}`)
  return resolve(dir, value)
}

function keySample(value: unknown, file: string): Spec['keySample'] {
  if (value === undefined) return 'chosen'
  if (value === 'chosen' || value === 'random') return value
  throw new SpecError(
    file,
    'key_sample',
    `must be random (the key's rows were drawn at random from the rows judged) or chosen, not ${describe(value)}`,
  )
}

function unit(root: YamlMap, key: string, file: string): number | null {
  const value = optional(root, key)
  return value === undefined ? null : asUnit(value, file, key)
}

/** The longest retention a spec may set: a hundred years, past which a number is a typo. */
export const MAX_RETAIN_DAYS = 36_500

function retainDays(value: unknown, file: string): number | null {
  if (value === undefined) return null
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_RETAIN_DAYS) return value
  throw new SpecError(
    file,
    'retain_days',
    `must be a whole number of days from 1 to ${MAX_RETAIN_DAYS}, not ${describe(value)}`,
  )
}

/** The keys a juror written as a mapping may hold. */
export const JUROR_KEYS = ['model', 'engine'] as const

/** What a spec's `model:`, `models:` and `samples:` say: one model or a jury, and how often to sample. */
export interface ModelChoice {
  readonly model: string | null
  readonly jurors: readonly Juror[] | null
  readonly samples: number | null
}

/**
 * Reads `model:`, `models:` (a jury of two or more distinct models, each a name or `{ model, engine }`) and
 * `samples:` (a whole number from 1); `model:` and `models:` together are an error naming the file and the key.
 */
export function parseModelChoice(root: YamlMap, file: string): ModelChoice {
  const model = optional(root, 'model')
  const models = optional(root, 'models')
  if (model !== undefined && models !== undefined) {
    throw new SpecError(file, 'models', 'cannot be given with model: name one model, or a jury of two or more')
  }
  return {
    model: model === undefined ? null : asText(model, file, 'model'),
    jurors: models === undefined ? null : parseJurors(models, file),
    samples: parseSamples(optional(root, 'samples'), file),
  }
}

function parseJurors(value: unknown, file: string): Juror[] {
  const list = asList(value, file, 'models')
  if (list.length < 2) {
    throw new SpecError(file, 'models', `a jury needs two or more models, not ${list.length}; for one, write model:`)
  }
  const seen = new Set<string>()
  return list.map((item, i) => {
    const path = itemOf('models', i)
    const juror = jurorOf(item, file, path)
    const id = `${juror.model}\0${juror.engine ?? ''}`
    if (seen.has(id)) {
      const on = juror.engine === null ? '' : ` on engine ${juror.engine}`
      throw new SpecError(file, path, `the model "${juror.model}"${on} is listed twice`)
    }
    seen.add(id)
    return juror
  })
}

function jurorOf(item: unknown, file: string, path: string): Juror {
  if (typeof item === 'string') return { model: asText(item, file, path), engine: null }
  if (!(item instanceof Map)) {
    throw new SpecError(file, path, `must be a model name or a mapping { model, engine }, not ${describe(item)}`)
  }
  const map = asMap(item, file, path)
  checkKeys(map, JUROR_KEYS, file, path)
  const model = optional(map, 'model')
  if (model === undefined) throw new SpecError(file, keyOf(path, 'model'), 'is required')
  const engine = optional(map, 'engine')
  return { model: asText(model, file, keyOf(path, 'model')), engine: engineOf(engine, file, keyOf(path, 'engine')) }
}

function engineOf(value: unknown, file: string, path: string): string | null {
  if (value === undefined) return null
  const kind = typeof value === 'string' ? ENGINE_KINDS.find((k) => k === value.trim().toLowerCase()) : undefined
  if (kind === undefined) {
    throw new SpecError(file, path, `must be one of ${ENGINE_KINDS.join(', ')}, not ${describe(value)}`)
  }
  return kind
}

function parseSamples(value: unknown, file: string): number | null {
  if (value === undefined) return null
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value
  throw new SpecError(file, 'samples', `must be a whole number of answers, 1 or more, not ${describe(value)}`)
}
