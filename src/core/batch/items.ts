import { sha256 } from '../hash.ts'
import { modelFor, type JudgeDeps } from '../judge/deps.ts'
import { fingerprintsOf } from '../judge/judge-row.ts'
import { stateHash, stateOf } from '../judge/state.ts'
import type { BatchItem } from '../../ports/engine.ts'
import type { BatchEntry } from '../../ports/batch-store.ts'
import type { Row, SourcedRow, Spec, State } from '../types.ts'

/** The questions already in a pending batch, by model and state hash (pendingKey): never put in another. */
export type PendingQuestions = ReadonlyMap<string, ReadonlySet<string>>

/** The key of a model's state in PendingQuestions. */
export function pendingKey(model: string, hash: string): string {
  return `${model}\0${hash}`
}

/** A batch item's key: 40 hex digits of SHA-256 over its model, state hash and question fingerprints. */
export function itemKey(model: string, hash: string, fingerprints: readonly string[]): string {
  return sha256(`${model}\0${hash}\0${fingerprints.join(',')}`).slice(0, 40)
}

/** A gatherer: add rows one at a time, each item handed on as it is found; then the count of states left waiting. */
export interface ItemGatherer {
  add(sourced: SourcedRow): void
  /** Distinct states left out because they depend on a label not yet answered (chaining). */
  waiting(): number
}

/** Where a row's state of a judgment is visited: what it is asked of, its state and hash. */
interface RowState {
  readonly spec: Spec
  readonly model: string
  readonly state: State
  readonly hash: string
}

type StoreDeps = Pick<JudgeDeps, 'store' | 'engine' | 'defaultModel'>

/**
 * Visits a row's state of each judgment in dependency order, each with the labels of the judgments it
 * depends on from the store; `visit` gives the stored answers it looked up, or null to leave the
 * look-up to the walk (done only when a later judgment may need the labels).
 */
function eachState(
  deps: StoreDeps,
  specs: readonly Spec[],
  { row, where }: SourcedRow,
  visit: (at: RowState) => ReadonlyMap<string, { readonly label: string | null }> | null,
  onWait: (spec: Spec) => void = () => {},
): void {
  const labels = new Map<string, string | null>()
  specs.forEach((spec, i) => {
    const extended = chained(row, spec, labels)
    if (extended === null) return onWait(spec)
    const model = modelFor(spec, deps)
    const state = stateOf(extended, spec.state, where)
    const hash = stateHash(state)
    const stored =
      visit({ spec, model, state, hash }) ??
      (i < specs.length - 1 ? deps.store.getAnswers(model, hash, fingerprintsOf(spec)) : null)
    if (stored === null) return
    for (const q of spec.questions) labels.set(`${spec.name}.${q.name}`, stored.get(q.fingerprint)?.label ?? null)
  })
}

/**
 * Gathers the bulk lane's items from rows, judgments in dependency order (withDependencies), from
 * the store alone: per row and judgment, the questions it lacks, as the per-request lane groups
 * them in one request, each distinct state once, handed to `onItem` as found (nothing of them is
 * held). A state whose text needs a label the store does not hold yet waits for a later run.
 */
export function createItemGatherer(
  deps: StoreDeps,
  specs: readonly Spec[],
  pending: PendingQuestions,
  onItem: (judgment: string, item: BatchItem) => void,
): ItemGatherer {
  const waiting = new Set<string>()
  const seen = new Set<string>()
  return {
    add(sourced) {
      const onWait = (spec: Spec) => waiting.add(`${spec.name}\0${sourced.where}`)
      eachState(
        deps,
        specs,
        sourced,
        ({ spec, model, state, hash }) => {
          const stored = deps.store.getAnswers(model, hash, fingerprintsOf(spec))
          const key = pendingKey(model, hash)
          if (seen.has(`${spec.name}\0${key}`)) return stored
          seen.add(`${spec.name}\0${key}`)
          const held = pending.get(key)
          const missing = spec.questions.filter((q) => !stored.has(q.fingerprint) && !held?.has(q.fingerprint))
          if (missing.length === 0) return stored
          const fingerprints = missing.map((q) => q.fingerprint)
          onItem(spec.name, { key: itemKey(model, hash, fingerprints), request: { model, state, questions: missing } })
          return stored
        },
        onWait,
      )
    },
    waiting: () => waiting.size,
  }
}

/** A recorded batch to make again: its tag, judgment and model, and its entries. */
export interface RecordedBatch {
  readonly tag: string
  readonly judgment: string
  readonly model: string
  readonly entries: readonly BatchEntry[]
}

/** A rebuilder of recorded batches' items: add rows one at a time, then read the items by tag. */
export interface ItemRebuilder {
  add(sourced: SourcedRow): void
  /** The items found by batch tag (every batch given, found or not), each in the order of the rows. */
  items(): Map<string, BatchItem[]>
}

/**
 * Makes several recorded batches' items again from one pass over the rows, their requests as they
 * were asked: each entry whose state (of the batch's judgment, asked of its model) is in the rows and
 * whose questions the spec still asks; `specs` in dependency order, up to the last batch's judgment.
 */
export function createItemRebuilder(
  deps: StoreDeps,
  specs: readonly Spec[],
  batches: readonly RecordedBatch[],
): ItemRebuilder {
  const items = new Map(batches.map((b) => [b.tag, [] as BatchItem[]]))
  const wanted = new Map<string, { tag: string; entry: BatchEntry }[]>()
  for (const { tag, judgment, model, entries } of batches) {
    for (const entry of entries) {
      const key = `${judgment}\0${pendingKey(model, entry.stateHash)}`
      wanted.set(key, [...(wanted.get(key) ?? []), { tag, entry }])
    }
  }
  const judgments = new Set(batches.map((b) => b.judgment))
  const upTo = specs.reduce((last, s, i) => (judgments.has(s.name) ? i : last), -1)
  const walked = specs.slice(0, upTo + 1)
  return {
    add(sourced) {
      eachState(deps, walked, sourced, ({ spec, model, state, hash }) => {
        const key = `${spec.name}\0${pendingKey(model, hash)}`
        const found = wanted.get(key)
        if (found === undefined) return null
        wanted.delete(key)
        for (const { tag, entry } of found) {
          const questions = spec.questions.filter((q) => entry.fingerprints.includes(q.fingerprint))
          if (questions.length === entry.fingerprints.length)
            items.get(tag)!.push({ key: entry.key, request: { model, state, questions } })
        }
        return null
      })
    },
    items: () => items,
  }
}

/** The row with the labels its judgment depends on, or null when one of them is not answered yet. */
function chained(row: Row, spec: Spec, labels: ReadonlyMap<string, string | null>): Row | null {
  const refs = spec.state.filter((c) => c.ref)
  if (refs.length === 0) return row
  const extended: Record<string, unknown> = { ...row }
  for (const { name, ref } of refs) {
    const label = labels.get(`${ref!.judgment}.${ref!.question}`)
    if (!label) return null
    extended[name] = label
  }
  return extended
}
