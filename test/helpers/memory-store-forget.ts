import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import type { ForgetPlan, ForgetStore, ForgottenLine, HeldState } from '../../src/ports/forget-store.ts'

/** A state's values as the fake keeps them: JSON text, and when they were last stored. */
export interface StoredState {
  readonly json: string
  readonly storedAt: string
}

/** What the forgetting methods of the fake read and change: the fake's own maps. */
export interface MemoryForgetData {
  readonly states: Map<string, StoredState>
  /** Kept rows by judgment, then state hash. */
  readonly kept: Map<string, Map<string, { readonly lastSeen: string }>>
  readonly answers: () => StoredAnswer[]
}

/** The ForgetStore methods of the in-memory fake, with the SQLite adapter's observable behaviour. */
export function createMemoryForget(data: MemoryForgetData): ForgetStore {
  const log: ForgottenLine[] = []
  const keptGoes = (plan: ForgetPlan, judgment: string, hash: string, lastSeen: string) =>
    plan.records.includes(hash) || (plan.stale?.judgment === judgment && lastSeen < plan.stale.before)
  const held = (plan: ForgetPlan): HeldState[] => {
    const found = new Map<string, { values: boolean; keptRows: number }>()
    const of = (hash: string) => found.get(hash) ?? found.set(hash, { values: false, keptRows: 0 }).get(hash)!
    for (const hash of plan.values) if (data.states.has(hash)) of(hash).values = true
    for (const [judgment, rows] of data.kept)
      for (const [hash, row] of rows) if (keptGoes(plan, judgment, hash, row.lastSeen)) of(hash).keptRows++
    return [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([stateHash, s]) => ({ stateHash, ...s }))
  }
  return {
    heldFor: held,
    forget(plan, { at, command }) {
      const states = held(plan)
      if (states.length === 0) return { states, logCleared: true }
      for (const hash of plan.values) data.states.delete(hash)
      for (const [judgment, rows] of data.kept)
        for (const [hash, row] of rows) if (keptGoes(plan, judgment, hash, row.lastSeen)) rows.delete(hash)
      for (const s of states) {
        const places: [string, number][] = [
          ['values', s.values ? 1 : 0],
          ['kept rows', s.keptRows],
        ]
        for (const [place, count] of places)
          if (count > 0) log.push({ at, command, stateHash: s.stateHash, place, count })
      }
      return { states, logCleared: true }
    },
    statesWhere(column, value) {
      return [...data.states]
        .filter(([, s]) => {
          const state = JSON.parse(s.json) as Record<string, string>
          return Object.hasOwn(state, column) && state[column] === value
        })
        .map(([hash]) => hash)
        .sort()
    },
    expiredStates(judgment, fingerprints, before) {
      const answered = new Set(
        data
          .answers()
          .filter((a) => fingerprints.includes(a.fingerprint))
          .map((a) => a.stateHash),
      )
      const kept = data.kept.get(judgment) ?? new Map()
      return [...data.states]
        .filter(([hash, s]) => s.storedAt < before && (kept.has(hash) || answered.has(hash)))
        .map(([hash]) => hash)
        .sort()
    },
    recordForgotten(lines) {
      log.push(...lines.map((l) => ({ ...l })))
    },
    forgottenLines: () => log.map((l) => ({ ...l })),
  }
}
