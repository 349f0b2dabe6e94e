import type { HeldRow, LeaseStore } from '../../src/ports/lease-store.ts'

interface Entry extends HeldRow {
  readonly place: number
}

/** In-memory review holds with the SQLite adapter's observable behaviour. */
export function createMemoryLeases(): LeaseStore {
  const held = new Map<string, Map<string, Entry>>()
  const of = (judgment: string) => {
    const rows = held.get(judgment) ?? new Map<string, Entry>()
    held.set(judgment, rows)
    return rows
  }
  const releaseReviewer = (judgment: string, reviewer: string) => {
    const rows = of(judgment)
    for (const [k, e] of rows) if (e.reviewer === reviewer) rows.delete(k)
  }
  return {
    heldRows(judgment, now) {
      const live = [...of(judgment).values()].filter((e) => e.until > now)
      return live
        .sort((a, b) => (a.reviewer < b.reviewer ? -1 : a.reviewer > b.reviewer ? 1 : a.place - b.place))
        .map(({ question, stateHash, reviewer, until, card }) => ({ question, stateHash, reviewer, until, card }))
    },
    holdRows(judgment, reviewer, wanted, now, until, most) {
      releaseReviewer(judgment, reviewer)
      const rows = of(judgment)
      const taken = new Set<string>()
      for (const row of wanted) {
        if (taken.size >= most) break
        const k = `${row.question}\0${row.stateHash}`
        const was = rows.get(k)
        if (was && was.until > now && was.reviewer !== reviewer) continue
        rows.set(k, { ...row, reviewer, until, place: taken.size })
        taken.add(k)
      }
      return taken
    },
    releaseRow(judgment, question, stateHash) {
      of(judgment).delete(`${question}\0${stateHash}`)
    },
    releaseReviewer,
  }
}
