import { EngineError, MissingKeyError } from '../errors.ts'
import type { Engine, EngineResult } from '../ports/engine.ts'
import type { Store, StoredAnswer } from '../ports/store.ts'
import { readDistribution, type Reading } from './answer.ts'
import { commitCost, createBudget, estimateStateTokens, tokenCost, type Budget } from './cost.ts'
import { routeOf } from './route.ts'
import { withDependencies } from './select.ts'
import { stateHash, stateOf } from './state.ts'
import type { Answers, Project, Question, Row, Spec, State } from './types.ts'

/** The ports and settings the judge operation works with. */
export interface JudgeDeps {
  readonly store: Store
  /** Null when no engine key is configured: only answers the store holds can be given. */
  readonly engine: Engine | null
  /** The model asked when a spec names none. */
  readonly defaultModel: string
  readonly pricePerMtok: number
  /** Engine requests in flight, shared by concurrent callers so that identical rows ask once. */
  readonly inflight: Map<string, Promise<Asked>>
  readonly now: () => Date
}

/** What one engine request brought back, already stored. */
export interface Asked {
  readonly answers: ReadonlyMap<string, StoredAnswer>
  readonly cost: number
}

/** Running totals of one judgment over one operation (a request or a command). */
export interface Tally {
  cached: number
  asked: number
  requests: number
  cost: number
}

/** One judgment's verdict on one row. */
export interface SpecResult {
  readonly spec: Spec
  readonly model: string
  readonly state: State
  readonly stateHash: string
  readonly answers: Answers
  readonly readings: Readonly<Record<string, Reading>>
}

/** Per-operation bookkeeping: a budget and a tally per judgment. */
export interface Ledger {
  budget(judgment: string): Budget
  tally(judgment: string): Tally
}

/** A ledger whose every judgment is capped at `cap` USD. */
export function createLedger(cap: number): Ledger {
  const budgets = new Map<string, Budget>()
  const tallies = new Map<string, Tally>()
  return {
    budget(judgment) {
      let b = budgets.get(judgment)
      if (!b) budgets.set(judgment, (b = createBudget(cap)))
      return b
    },
    tally(judgment) {
      let t = tallies.get(judgment)
      if (!t) tallies.set(judgment, (t = { cached: 0, asked: 0, requests: 0, cost: 0 }))
      return t
    },
  }
}

/** The model a spec is asked with. */
export function modelFor(spec: Spec, deps: Pick<JudgeDeps, 'defaultModel'>): string {
  return spec.model ?? deps.defaultModel
}

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
export async function judgeRow(
  deps: JudgeDeps,
  project: Project,
  specs: readonly Spec[],
  row: Row,
  ledger: Ledger,
  where: string,
): Promise<Map<string, SpecResult>> {
  return judgeOrdered(deps, withDependencies(project, specs), row, ledger, where)
}

/**
 * judgeRow over judgments already in dependency order (withDependencies), for callers that judge
 * many rows with the same judgments. A row the store answers in full is judged synchronously:
 * the result is then a Map, not a Promise, and a bad row throws instead of rejecting.
 */
export function judgeOrdered(deps: JudgeDeps, ordered: readonly Spec[], row: Row, ledger: Ledger, where: string): Map<string, SpecResult> | Promise<Map<string, SpecResult>> {
  const results = new Map<string, SpecResult>()
  for (let i = 0; i < ordered.length; i++) {
    const spec = ordered[i]
    const result = judgeSpecNow(deps, spec, chainedRow(row, spec, results), ledger, where)
    if (result instanceof Promise) return judgeRest(deps, ordered, i, result, row, results, ledger, where)
    results.set(spec.name, result)
  }
  return results
}

async function judgeRest(deps: JudgeDeps, ordered: readonly Spec[], from: number, pending: Promise<SpecResult>, row: Row, results: Map<string, SpecResult>, ledger: Ledger, where: string): Promise<Map<string, SpecResult>> {
  results.set(ordered[from].name, await pending)
  for (const spec of ordered.slice(from + 1)) {
    results.set(spec.name, await judgeSpecNow(deps, spec, chainedRow(row, spec, results), ledger, where))
  }
  return results
}

/** Judges one row with one judgment whose dependencies' labels are already in the row. */
export async function judgeSpec(deps: JudgeDeps, spec: Spec, row: Row, ledger: Ledger, where: string): Promise<SpecResult> {
  return judgeSpecNow(deps, spec, row, ledger, where)
}

// Synchronous when the store holds every answer: a cached row then costs no promise at all.
function judgeSpecNow(deps: JudgeDeps, spec: Spec, row: Row, ledger: Ledger, where: string): SpecResult | Promise<SpecResult> {
  const state = stateOf(row, spec.state, where)
  const hash = stateHash(state)
  const model = modelFor(spec, deps)
  const fingerprints = fingerprintsOf(spec)
  const stored = deps.store.getAnswers(model, hash, fingerprints)
  const tally = ledger.tally(spec.name)
  if (fingerprints.every((fp) => stored.has(fp))) {
    tally.cached += fingerprints.length
    return assemble(spec, model, state, hash, stored, NONE_FRESH)
  }
  const missing = spec.questions.filter((q) => !stored.has(q.fingerprint))
  tally.cached += spec.questions.length - missing.length
  return askMissing(deps, spec, model, state, hash, new Map(stored), missing, ledger)
}

async function askMissing(deps: JudgeDeps, spec: Spec, model: string, state: State, hash: string, stored: Map<string, StoredAnswer>, missing: Question[], ledger: Ledger): Promise<SpecResult> {
  const tally = ledger.tally(spec.name)
  const fresh = new Set<string>()
  const { asked, joined } = askOnce(deps, spec, model, state, hash, missing, ledger)
  const got = await asked
  for (const [fp, answer] of got.answers) {
    stored.set(fp, answer)
    if (!joined) fresh.add(fp)
  }
  if (joined) tally.cached += missing.length
  else Object.assign(tally, { asked: tally.asked + missing.length, requests: tally.requests + 1, cost: tally.cost + got.cost })
  return assemble(spec, model, state, hash, stored, fresh)
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

function assemble(spec: Spec, model: string, state: State, hash: string, stored: ReadonlyMap<string, StoredAnswer>, fresh: ReadonlySet<string>): SpecResult {
  const answers: Answers = {}
  const readings: Record<string, Reading> = {}
  for (const q of spec.questions) {
    const s = stored.get(q.fingerprint)!
    const reading = readDistribution(q, s.distribution)
    readings[q.name] = reading
    answers[q.name] = { ...reading, route: routeOf(spec.act[q.name], reading), cached: !fresh.has(q.fingerprint) }
  }
  return { spec, model, state, stateHash: hash, answers, readings }
}

function askOnce(deps: JudgeDeps, spec: Spec, model: string, state: State, hash: string, missing: Question[], ledger: Ledger): { asked: Promise<Asked>; joined: boolean } {
  const key = `${model}\0${hash}\0${missing.map((q) => q.fingerprint).join(',')}`
  const pending = deps.inflight.get(key)
  if (pending) return { asked: pending, joined: true }
  if (!deps.engine) throw new MissingKeyError(spec.name)
  commitCost(ledger.budget(spec.name), spec.name, missing.length, 1, tokenCost(estimateStateTokens(state, missing.length), deps.pricePerMtok))
  const asked = askAndStore(deps, deps.engine, spec, model, state, hash, missing)
  deps.inflight.set(key, asked)
  const forget = () => deps.inflight.delete(key)
  asked.then(forget, forget)
  return { asked, joined: false }
}

async function askAndStore(deps: JudgeDeps, engine: Engine, spec: Spec, model: string, state: State, hash: string, questions: Question[]): Promise<Asked> {
  const result = await engine.ask({ model, state, questions })
  const askedAt = timestamp(deps.now())
  const answers = new Map<string, StoredAnswer>()
  for (const q of questions) {
    const distribution = distributionFor(result, q, spec)
    const { label, p, margin } = readDistribution(q, distribution)
    answers.set(q.fingerprint, { model, fingerprint: q.fingerprint, stateHash: hash, judgment: spec.name, question: q.name, distribution, label, p, margin, askedAt })
  }
  deps.store.putAnswers([...answers.values()], hash, state)
  return { answers, cost: tokenCost(result.inputTokens, deps.pricePerMtok) }
}

function distributionFor(result: EngineResult, q: Question, spec: Spec) {
  const d = result.distributions[q.name]
  if (!d || q.labels.every((l) => typeof d[l] !== 'number')) {
    throw new EngineError(`judgment ${spec.name}: the engine gave no answer to question ${q.name}`, null)
  }
  return d
}

/** A UTC timestamp without zone offset, as the seed's run records use: 2026-11-22T04:31:07.250. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '')
}
