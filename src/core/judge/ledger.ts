import { createBudget, type Budget } from './cost.ts'

/** Running totals of one judgment over one operation (a request or a command). */
export interface Tally {
  /** Answers that came from the store, for rows whose state had not come earlier in the operation. */
  cached: number
  asked: number
  requests: number
  cost: number
  /** Rows whose state came earlier in the same operation (a data file's duplicates). */
  duplicates: number
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
      if (!t) tallies.set(judgment, (t = { cached: 0, asked: 0, requests: 0, cost: 0, duplicates: 0 }))
      return t
    },
  }
}
