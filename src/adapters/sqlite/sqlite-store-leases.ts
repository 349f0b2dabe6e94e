import type { HeldRow, LeaseStore } from '../../ports/lease-store.ts'
import type { Statements } from './sqlite-statements.ts'
import { isDiskFull } from './store-trouble.ts'

/**
 * The review holds of a SQLite store, over its prepared statements and write transaction. A store
 * that can only be read keeps no hold: its queue is offered as it was before holds, every row to
 * every reviewer, and a verdict (written to the reviews file, not the store) still works. A store
 * on a full disk takes no hold either, the same way, until space is freed.
 */
export function leaseMethods(sql: Statements, transaction: (work: () => void) => void, readOnly = false): LeaseStore {
  if (readOnly) {
    return {
      heldRows: () => [],
      holdRows: (_judgment, _reviewer, rows, _now, _until, most) => unheld(rows, most),
      releaseRow() {},
      releaseReviewer() {},
    }
  }
  return {
    heldRows(judgment, now) {
      // Read in a write transaction, not the turn's read snapshot: a hold taken a moment ago by
      // another process must be seen, or a verdict on a row just taken would be refused.
      let rows: unknown[] = []
      transaction(() => void (rows = sql.heldRows.all(judgment, now)))
      return rows.map((row) => {
        const r = row as { question: string; state_hash: string; reviewer: string; until: number; card: string }
        return {
          question: r.question,
          stateHash: r.state_hash,
          reviewer: r.reviewer,
          until: r.until,
          card: r.card,
        } satisfies HeldRow
      })
    },
    holdRows(judgment, reviewer, rows, now, until, most) {
      const taken = new Set<string>()
      // One write: the release, the expired holds' removal and the takes, so two reviewers never take one row.
      try {
        transaction(() => {
          sql.releaseReviewer.run(judgment, reviewer)
          sql.dropExpiredLeases.run(now)
          for (const row of rows) {
            if (taken.size >= most) break
            const changed = sql.holdRow.run(
              judgment,
              row.question,
              row.stateHash,
              reviewer,
              until,
              taken.size,
              row.card,
              now,
            )
            if (Number(changed.changes) > 0) taken.add(`${row.question}\0${row.stateHash}`)
          }
        })
      } catch (error) {
        if (!isDiskFull(error)) throw error
        return unheld(rows, most)
      }
      return taken
    },
    releaseRow(judgment, question, stateHash) {
      transaction(() => void sql.releaseRow.run(judgment, question, stateHash))
    },
    releaseReviewer(judgment, reviewer) {
      transaction(() => void sql.releaseReviewer.run(judgment, reviewer))
    },
  }
}

/** The first `most` rows, as taken when no hold can be kept: offered as they are, held for nobody. */
function unheld(rows: readonly { readonly question: string; readonly stateHash: string }[], most: number): Set<string> {
  return new Set(rows.slice(0, most).map((row) => `${row.question}\0${row.stateHash}`))
}
