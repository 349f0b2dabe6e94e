import type { StoredAnswer } from '../../ports/store.ts'
import type { Answers, Project, Row, SourcedRow, Spec, State } from '../types.ts'
import { askMissing, type Lookup } from './ask.ts'
import { modelFor, type Judging } from './deps.ts'
import { routeOf } from './route.ts'
import { withDependencies } from './select.ts'
import { stateHash, stateOf } from './state.ts'

/** One judgment's verdict on one row. */
export interface SpecResult {
  readonly spec: Spec
  readonly model: string
  readonly state: State
  readonly stateHash: string
  readonly answers: Answers
  /** The stored answer behind each question's, by fingerprint (with the model the engine reported). */
  readonly stored: ReadonlyMap<string, StoredAnswer>
}

/** Every judgment's result for one row, by judgment name. */
export type RowResults = Map<string, SpecResult>

/** The row extended with the labels of the judgments it depends on (chaining). */
export function chainedRow(row: Row, spec: Spec, results: ReadonlyMap<string, SpecResult>): Row {
  const refs = spec.state.filter((c) => c.ref)
  if (refs.length === 0) return row
  const extended: Record<string, unknown> = { ...row }
  for (const { name, ref } of refs) extended[name] = results.get(ref!.judgment)!.answers[ref!.question].label
  return extended
}

/**
 * Judges one row with the given judgments and everything they depend on, each once, in
 * dependency order. Answers the store holds are used; the rest is asked in one request per
 * judgment, within the ledger's budget.
 */
export async function judgeRow(job: Judging, project: Project, specs: readonly Spec[], sourced: SourcedRow): Promise<RowResults> {
  return judgeOrdered(job, withDependencies(project, specs), sourced)
}

/**
 * judgeRow over judgments already in dependency order (withDependencies), for callers that judge
 * many rows with the same judgments. A row the store answers in full is judged synchronously:
 * the result is then a Map, not a Promise, and a bad row throws instead of rejecting.
 */
export function judgeOrdered(job: Judging, ordered: readonly Spec[], sourced: SourcedRow): RowResults | Promise<RowResults> {
  const results: RowResults = new Map()
  for (let i = 0; i < ordered.length; i++) {
    const spec = ordered[i]
    const result = judgeSpecNow(job, spec, { row: chainedRow(sourced.row, spec, results), where: sourced.where })
    if (result instanceof Promise) return judgeRest(job, ordered.slice(i), result, sourced, results)
    results.set(spec.name, result)
  }
  return results
}

async function judgeRest(job: Judging, rest: readonly Spec[], pending: Promise<SpecResult>, sourced: SourcedRow, results: RowResults): Promise<RowResults> {
  results.set(rest[0].name, await pending)
  for (const spec of rest.slice(1)) {
    results.set(spec.name, await judgeSpecNow(job, spec, { row: chainedRow(sourced.row, spec, results), where: sourced.where }))
  }
  return results
}

/** Judges one row with one judgment whose dependencies' labels are already in the row. */
export async function judgeSpec(job: Judging, spec: Spec, sourced: SourcedRow): Promise<SpecResult> {
  return judgeSpecNow(job, spec, sourced)
}

// Synchronous when the store holds every answer: a cached row then costs no promise at all.
function judgeSpecNow(job: Judging, spec: Spec, sourced: SourcedRow): SpecResult | Promise<SpecResult> {
  const state = stateOf(sourced.row, spec.state, sourced.where)
  const hash = stateHash(state)
  const model = modelFor(spec, job.deps)
  const fingerprints = fingerprintsOf(spec)
  const stored = job.deps.store.getAnswers(model, hash, fingerprints)
  const tally = job.ledger.tally(spec.name)
  if (fingerprints.every((fp) => stored.has(fp))) {
    tally.cached += fingerprints.length
    return assemble({ spec, model, state, hash, stored, missing: [] }, stored, NONE_FRESH)
  }
  const missing = spec.questions.filter((q) => !stored.has(q.fingerprint))
  tally.cached += spec.questions.length - missing.length
  const lookup: Lookup = { spec, model, state, hash, stored: new Map(stored), missing }
  return askMissing(job, lookup).then(({ stored: filled, fresh }) => assemble(lookup, filled, fresh))
}

const NONE_FRESH: ReadonlySet<string> = new Set()

// Specs are immutable once loaded, so the list of their fingerprints is computed once per spec.
const fingerprintLists = new WeakMap<Spec, readonly string[]>()

/** The fingerprints of a spec's questions, in spec order. */
export function fingerprintsOf(spec: Spec): readonly string[] {
  let list = fingerprintLists.get(spec)
  if (!list) fingerprintLists.set(spec, (list = spec.questions.map((q) => q.fingerprint)))
  return list
}

/** The answers of a spec's questions, each the stored one as it was read when asked, routed by the spec's rules. */
function assemble(lookup: Lookup, stored: ReadonlyMap<string, StoredAnswer>, fresh: ReadonlySet<string>): SpecResult {
  const { spec, model, state, hash } = lookup
  const answers: Answers = {}
  for (const q of spec.questions) {
    const { label, p, margin } = stored.get(q.fingerprint)!
    answers[q.name] = { label, p, margin, route: routeOf(spec.act[q.name], { label, p, margin }), cached: !fresh.has(q.fingerprint) }
  }
  return { spec, model, state, stateHash: hash, answers, stored }
}
