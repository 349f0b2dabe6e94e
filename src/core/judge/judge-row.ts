import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Answers, Project, Row, SourcedRow, Spec, State } from '../types.ts'
import { hasJury } from '../jury/jurors.ts'
import { askMissing, type Lookup } from './ask.ts'
import { InternalError } from '../../errors.ts'
import { modelFor, type JudgeDeps, type Judging } from './deps.ts'
import type { Ledger } from './ledger.ts'
import type { RepeatMemo } from './repeat-memo.ts'
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
 * The synchronous probe: every judgment's result for the row when the store holds every answer
 * (judgments in dependency order, as withDependencies gives them), else null. It asks nothing,
 * counts nothing and waits for nothing; a row that lacks a state column throws an InputError. A
 * state the memo holds is taken from it, without reading the store. With `reweigh`, a jury's
 * answers are to be made again: a row with a jury state the memo lacks gets null.
 */
export function storedAnswers(
  deps: JudgeDeps,
  ordered: readonly Spec[],
  sourced: SourcedRow,
  memo?: RepeatMemo<SpecResult>,
  reweigh = false,
): RowResults | null {
  const results: RowResults = new Map()
  for (const spec of ordered) {
    const state = stateOf(chainedRow(sourced.row, spec, results), spec.state, sourced.where)
    const hash = stateHash(state)
    const known = memo?.get(spec.name, hash)
    if (known) {
      results.set(spec.name, known)
      continue
    }
    if (reweigh && hasJury(spec)) return null
    const lookup = lookUpState(deps, spec, state, hash)
    if (lookup.missing.length > 0) return null
    results.set(spec.name, assemble(lookup, lookup.stored, NONE_FRESH))
  }
  return results
}

/** Counts a probe's results as answers from the store, as judging them would have. */
export function countStored(ledger: Ledger, results: RowResults): void {
  for (const { spec } of results.values()) ledger.tally(spec.name).cached += spec.questions.length
}

/**
 * Judges one row with the given judgments and everything they depend on, each once, in
 * dependency order. Answers the store holds are used; the rest is asked in one request per
 * judgment, within the ledger's budget.
 */
export async function judgeRow(
  job: Judging,
  project: Project,
  specs: readonly Spec[],
  sourced: SourcedRow,
): Promise<RowResults> {
  return judgeOrdered(job, withDependencies(project, specs), sourced)
}

/**
 * judgeRow over judgments already in dependency order (withDependencies), for callers that judge many rows with them.
 */
export async function judgeOrdered(job: Judging, ordered: readonly Spec[], sourced: SourcedRow): Promise<RowResults> {
  const results: RowResults = new Map()
  for (const spec of ordered) {
    results.set(
      spec.name,
      await judgeSpec(job, spec, { row: chainedRow(sourced.row, spec, results), where: sourced.where }),
    )
  }
  return results
}

/**
 * Judges one row with one judgment whose dependencies' labels are already in the row: the store
 * is looked up as the probe looks it up, and only what it lacks is asked.
 */
export async function judgeSpec(job: Judging, spec: Spec, sourced: SourcedRow): Promise<SpecResult> {
  const found = lookUp(job.deps, spec, sourced)
  // Re-weighing makes every answer of a jury again, not only those it lacks.
  const lookup = job.reweigh && hasJury(spec) ? { ...found, missing: spec.questions } : found
  job.ledger.tally(spec.name).cached += spec.questions.length - lookup.missing.length
  if (lookup.missing.length === 0) return assemble(lookup, lookup.stored, NONE_FRESH)
  const { stored, fresh } = hasJury(spec) ? await askJury(job, lookup) : await askMissing(job, lookup)
  return assemble(lookup, stored, fresh)
}

/** What the store holds and lacks of one judgment's answers for one row: the one store read of judging. */
function lookUp(deps: JudgeDeps, spec: Spec, sourced: SourcedRow): Lookup {
  const state = stateOf(sourced.row, spec.state, sourced.where)
  return lookUpState(deps, spec, state, stateHash(state))
}

function lookUpState(deps: JudgeDeps, spec: Spec, state: State, hash: string): Lookup {
  const model = modelFor(spec, deps)
  const fingerprints = fingerprintsOf(spec)
  const stored = deps.store.getAnswers(model, hash, fingerprints)
  const missing =
    stored.size === fingerprints.length ? NONE_MISSING : spec.questions.filter((q) => !stored.has(q.fingerprint))
  return { spec, model, state, hash, stored, missing }
}

/** A jury's missing answers, filled by the deps' askJury (core/judge/ask-jury.ts, loaded with the first jury). */
function askJury(job: Judging, lookup: Lookup) {
  if (!job.deps.askJury)
    throw new InternalError(`judgment ${lookup.spec.name} names a jury, which these deps cannot ask`)
  return job.deps.askJury(job, lookup)
}

const NONE_FRESH: ReadonlySet<string> = new Set()
const NONE_MISSING: Lookup['missing'] = []

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
  return { spec, model, state, stateHash: hash, answers: answersOf(spec, stored, fresh), stored }
}

/**
 * A spec's answers from the stored answers of its questions (by fingerprint, every one there),
 * routed by its rules; those whose fingerprint is in `fresh` were asked just now, the rest are from the store.
 */
export function answersOf(
  spec: Spec,
  stored: ReadonlyMap<string, StoredAnswer>,
  fresh: ReadonlySet<string> = NONE_FRESH,
): Answers {
  const answers: Answers = {}
  for (const q of spec.questions) {
    const { label, p, margin, source } = stored.get(q.fingerprint)!
    answers[q.name] = {
      label,
      p,
      margin,
      route: routeOf(spec.act[q.name], { label, p, margin }),
      cached: !fresh.has(q.fingerprint),
      p_source: source ?? null,
    }
  }
  return answers
}
