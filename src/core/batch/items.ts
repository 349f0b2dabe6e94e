import { sha256 } from '../hash.ts'
import { modelFor, type JudgeDeps } from '../judge/deps.ts'
import { fingerprintsOf } from '../judge/judge-row.ts'
import { stateHash, stateOf } from '../judge/state.ts'
import type { BatchItem } from '../../ports/engine.ts'
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

/** What the rows of a source give the bulk lane. */
export interface GatheredItems {
  /** Per judgment, one item per distinct state with questions the store lacks and no pending batch holds. */
  readonly items: ReadonlyMap<string, BatchItem[]>
  /** Every distinct state seen, by model and state hash (pendingKey): to rebuild a pending batch's requests. */
  readonly states: ReadonlyMap<string, State>
  /** Distinct states left out because they depend on a label not yet answered (chaining). */
  readonly waiting: number
}

/** A gatherer: add rows one at a time, then read the items. */
export interface ItemGatherer {
  add(sourced: SourcedRow): void
  result(): GatheredItems
}

/**
 * Gathers the bulk lane's items from rows, judgments in dependency order (withDependencies), from
 * the store alone: per row and judgment, the questions it lacks, as the per-request lane groups
 * them in one request, each distinct state once. A state whose text needs a label the store does
 * not hold yet waits for a later run.
 */
export function createItemGatherer(
  deps: Pick<JudgeDeps, 'store' | 'engine' | 'defaultModel'>,
  specs: readonly Spec[],
  pending: PendingQuestions,
): ItemGatherer {
  const items = new Map<string, BatchItem[]>(specs.map((s) => [s.name, []]))
  const states = new Map<string, State>()
  const waiting = new Set<string>()
  const seen = new Set<string>()
  return {
    add({ row, where }) {
      const labels = new Map<string, string | null>()
      for (const spec of specs) {
        const extended = chained(row, spec, labels)
        if (extended === null) {
          waiting.add(`${spec.name}\0${where}`)
          continue
        }
        const model = modelFor(spec, deps)
        const state = stateOf(extended, spec.state, where)
        const hash = stateHash(state)
        const stored = deps.store.getAnswers(model, hash, fingerprintsOf(spec))
        for (const q of spec.questions) labels.set(`${spec.name}.${q.name}`, stored.get(q.fingerprint)?.label ?? null)
        const key = pendingKey(model, hash)
        if (seen.has(`${spec.name}\0${key}`)) continue
        seen.add(`${spec.name}\0${key}`)
        states.set(key, state)
        const held = pending.get(key)
        const missing = spec.questions.filter((q) => !stored.has(q.fingerprint) && !held?.has(q.fingerprint))
        if (missing.length === 0) continue
        const fingerprints = missing.map((q) => q.fingerprint)
        items
          .get(spec.name)!
          .push({ key: itemKey(model, hash, fingerprints), request: { model, state, questions: missing } })
      }
    },
    result: () => ({ items, states, waiting: waiting.size }),
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
