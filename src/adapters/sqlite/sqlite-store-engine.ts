import type { DaySpend } from '../../ports/pace-store.ts'
import type { PaceStore } from '../../ports/pace-store.ts'
import { sqlLimit, type Statements } from './sqlite-statements.ts'

/** The pacing and spend methods of a SQLite store, over its prepared statements and write transaction. */
export function engineMethods(sql: Statements, transaction: (work: () => void) => void): PaceStore {
  const freeAt = (key: string): number => (sql.getPace.get(key) as { next_at: number } | undefined)?.next_at ?? 0
  return {
    reservePace(key, now, spacingMs, latest) {
      // Without spacing there is nothing to reserve, only a hold to respect: a read will do.
      if (spacingMs <= 0) {
        const at = Math.max(now, freeAt(key))
        return { at, reserved: at <= latest }
      }
      let slot = { at: now, reserved: false }
      // Read and move on under the write lock, so that two processes never take the same slot.
      transaction(() => {
        const at = Math.max(now, freeAt(key))
        slot = { at, reserved: at <= latest }
        if (slot.reserved) sql.putPace.run(key, at + spacingMs)
      })
      return slot
    },
    holdPace(key, until) {
      transaction(() => void sql.holdPace.run(key, until))
    },
    paceCut(key) {
      const row = sql.getPaceCut.get(key) as { at: number; ceiling: number } | undefined
      return row === undefined ? null : { at: row.at, ceiling: row.ceiling }
    },
    cutPace(key, cut, sentAt) {
      let kept = cut
      // Read and write under the write lock, so that one round refused in two processes cuts once.
      transaction(() => {
        const last = sql.getPaceCut.get(key) as { at: number; ceiling: number } | undefined
        if (last !== undefined && last.at >= sentAt) kept = { at: last.at, ceiling: last.ceiling }
        else sql.putPaceCut.run(key, cut.at, cut.ceiling)
      })
      return kept
    },
    addSpend(day, source, cost, requests) {
      transaction(() => void sql.addSpend.run(day, source, cost, requests))
    },
    spendByDay(source, limit) {
      return sql.spendByDay.all(source, sqlLimit(limit)).map((row) => ({ ...row }) as unknown as DaySpend)
    },
  }
}
