import { estimateOf, samplesOf } from './ask.ts'
import { tokenCost } from './cost.ts'
import { fingerprintsOf } from './judge-row.ts'
import { modelFor, type JudgeDeps } from './deps.ts'
import { withDependencies } from './select.ts'
import { createStateSet, createStateTally, type StateSet, type StateTally } from './state-set.ts'
import { stateHash, stateOf } from './state.ts'
import type { AnswerStore } from '../../ports/answer-store.ts'
import type { Project, Question, Row, Spec, State } from '../types.ts'

/** What judging a set of rows would do for one judgment, asking nothing. */
export interface JudgmentPlan {
  readonly judgment: string
  readonly model: string
  readonly rows: number
  /** Distinct states among the rows. */
  readonly states: number
  /** Rows repeating an earlier row's state: judged with it, neither asked nor counted as cached. */
  readonly duplicates: number
  /** Answers the store already holds, per distinct state and question. */
  readonly cached: number
  /** Answers that would be asked of the engine (one per distinct state and uncached question). */
  readonly ask: number
  /** Engine requests: one per distinct state with an uncached question. */
  readonly requests: number
  /** Estimated cost in USD of the requests. */
  readonly estimate: number
  /** States that depend on a label not yet known, so their exact text is not known either. */
  readonly unknown: number
  /** Per question, in spec order: what its wording's change since the last run costs. */
  readonly questions: readonly QuestionPlan[]
}

/** One question of a plan: whether its fingerprint changed since the last run, and what that costs. */
export interface QuestionPlan {
  readonly question: string
  readonly fingerprint: string
  /** Its fingerprint in the judgment's last run; null when there is no run that recorded one. */
  readonly last_run_fingerprint: string | null
  readonly changed: boolean
  /** Answers to these rows' states under the last run's fingerprint: no longer read. */
  readonly stale: number
  /** Estimated USD to ask again, one question per request, the stale ones without a current answer. */
  readonly refill: number
}

/** The question fingerprints of each judgment's last run, by judgment and question. */
export type LastFingerprints = ReadonlyMap<string, Readonly<Record<string, string>>>

interface Staleness {
  readonly question: Question
  readonly last: string
  stale: number
  refill: number
}

interface Counter {
  rows: number
  ask: number
  requests: number
  estimate: number
  unknown: number
  /** Distinct states seen, with their rows. */
  readonly seen: StateTally
  /** Apart: states whose text waits on a dependency's unknown label, by their stand-in's hash. */
  readonly seenUnknown: StateSet
  /** The questions whose fingerprint changed since the last run. */
  readonly changed: readonly Staleness[]
  /** The fingerprints to look up for a state: the current ones, then the changed questions' last ones. */
  readonly lookup: readonly string[]
}

/** A planner: add rows one at a time, then read the plan of every judgment they touch. */
export interface Planner {
  add(row: Row, where: string): void
  result(): JudgmentPlan[]
  /**
   * The distinct states of a judgment whose text the plan knew, with their rows: for the run after
   * it to take over (tallyOver), or to count its rows from when the store answers them all.
   */
  seen(judgment: string): StateTally
}

/**
 * Plans the judgments and their dependencies over rows, from the store alone. A dependent whose
 * dependency is not cached has an unknown state: it is counted as a distinct state asking every
 * question, with the longest label standing in for the unknown one.
 */
export function createPlanner(
  deps: Pick<JudgeDeps, 'engine' | 'defaultModel' | 'pricePerMtok'> & { readonly store: AnswerStore },
  project: Project,
  selected: readonly Spec[],
  last: LastFingerprints = new Map(),
): Planner {
  const specs = withDependencies(project, selected)
  const counters = new Map<string, Counter>(specs.map((s) => [s.name, counterOf(s, last.get(s.name))]))
  // The labels a dependent's state needs (`judgment.question`); without chaining there are none,
  // and a state seen before then needs no second look at the store.
  const needed = new Set(specs.flatMap((s) => s.state.flatMap((c) => (c.ref ? [c.name] : []))))
  const gives = new Map(specs.map((s) => [s.name, s.questions.filter((q) => needed.has(`${s.name}.${q.name}`))]))
  return {
    add(row, where) {
      const labels = new Map<string, string | null>()
      for (const spec of specs) planSpec(spec, row, where, labels, counters.get(spec.name)!, gives.get(spec.name)!)
    },
    result() {
      return specs.map((spec) => {
        const c = counters.get(spec.name)!
        const states = c.seen.size + c.seenUnknown.size
        return {
          judgment: spec.name,
          model: modelFor(spec, deps),
          rows: c.rows,
          states,
          duplicates: c.rows - states,
          cached: states * spec.questions.length - c.ask,
          ask: c.ask,
          requests: c.requests,
          estimate: c.estimate,
          unknown: c.unknown,
          questions: questionPlans(spec, last.get(spec.name), c.changed),
        }
      })
    },
    seen(judgment) {
      const c = counters.get(judgment)
      if (!c) throw new RangeError(`no plan of judgment ${judgment}`)
      return c.seen
    },
  }

  function planSpec(
    spec: Spec,
    row: Row,
    where: string,
    labels: Map<string, string | null>,
    c: Counter,
    gives: readonly Question[],
  ): void {
    c.rows += 1
    let known = true
    let extended: Row = row
    if (spec.state.some((column) => column.ref)) {
      const copy: Record<string, unknown> = { ...row }
      for (const { name, ref } of spec.state) {
        if (!ref) continue
        const label = labels.get(name)
        if (label === null || label === undefined) known = false
        copy[name] = label ?? longestLabel(project, ref.judgment, ref.question)
      }
      extended = copy
    }
    const state = stateOf(extended, spec.state, where)
    const hash = stateHash(state)
    const first = known ? c.seen.count(hash) === 1 : c.seenUnknown.add(hash)
    if (!first && gives.length === 0) return
    const held = known ? heldAnswers(spec, hash, gives, labels, c.lookup) : new Set<string>()
    if (!first) return
    for (const s of c.changed) {
      if (!held.has(s.last)) continue
      s.stale += 1
      if (!held.has(s.question.fingerprint)) s.refill += refillCost(spec, state, s.question)
    }
    const missing = spec.questions.filter((q) => !held.has(q.fingerprint))
    if (missing.length === 0) return
    if (!known) c.unknown += 1
    const estimate = estimateOf(deps.engine ?? null, {
      model: modelFor(spec, deps),
      state,
      questions: missing,
      ...samplesOf(spec),
    })
    c.ask += missing.length
    c.requests += estimate.requests
    c.estimate += tokenCost(estimate.inputTokens, deps.pricePerMtok)
  }

  /** What asking one question about a state would cost on a request of its own. */
  function refillCost(spec: Spec, state: State, question: Question): number {
    return tokenCost(
      estimateOf(deps.engine ?? null, { model: modelFor(spec, deps), state, questions: [question], ...samplesOf(spec) })
        .inputTokens,
      deps.pricePerMtok,
    )
  }

  /** The fingerprints the store answers for a known state, noting the labels dependents need. */
  function heldAnswers(
    spec: Spec,
    hash: string,
    gives: readonly Question[],
    labels: Map<string, string | null>,
    lookup: readonly string[],
  ): Set<string> {
    const model = modelFor(spec, deps)
    // Without dependents, whether an answer is there is all the plan needs: the answers stay unread.
    if (gives.length === 0) return deps.store.answeredFingerprints(model, hash, lookup)
    const stored = deps.store.getAnswers(model, hash, lookup)
    for (const q of gives) {
      const s = stored.get(q.fingerprint)
      labels.set(`${spec.name}.${q.name}`, s ? s.label : null)
    }
    return new Set(stored.keys())
  }
}

function counterOf(spec: Spec, last: Readonly<Record<string, string>> | undefined): Counter {
  const changed = spec.questions.flatMap((question): Staleness[] => {
    const before = last?.[question.name]
    return before !== undefined && before !== question.fingerprint
      ? [{ question, last: before, stale: 0, refill: 0 }]
      : []
  })
  return {
    rows: 0,
    ask: 0,
    requests: 0,
    estimate: 0,
    unknown: 0,
    seen: createStateTally(),
    seenUnknown: createStateSet(),
    changed,
    lookup: changed.length === 0 ? fingerprintsOf(spec) : [...fingerprintsOf(spec), ...changed.map((s) => s.last)],
  }
}

function questionPlans(
  spec: Spec,
  last: Readonly<Record<string, string>> | undefined,
  changed: readonly Staleness[],
): QuestionPlan[] {
  return spec.questions.map((q) => {
    const s = changed.find((c) => c.question === q)
    return {
      question: q.name,
      fingerprint: q.fingerprint,
      last_run_fingerprint: last?.[q.name] ?? null,
      changed: s !== undefined,
      stale: s?.stale ?? 0,
      refill: s?.refill ?? 0,
    }
  })
}

function longestLabel(project: Project, judgment: string, question: string): string {
  const q = project.specs.find((s) => s.name === judgment)!.questions.find((x) => x.name === question)!
  return q.labels.reduce((a, b) => (b.length > a.length ? b : a))
}
