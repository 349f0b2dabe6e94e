import type { DatabaseSync } from 'node:sqlite'
import type { ForgetPlan, ForgetStore, ForgottenLine, HeldState } from '../../ports/forget-store.ts'
import { prepareEach } from './sqlite-statements.ts'

// A plan's state lists travel as JSON arrays; its stale part binds as judgment and time, both
// NULL without one, which no row equals. The same condition picks what is counted and deleted.
const KEPT = `state_hash IN (SELECT value FROM json_each(?1)) OR (judgment = ?2 AND last_seen < ?3)`

// Every model the answers are under, one index search each (the table is keyed by model first).
const MODELS = `WITH RECURSIVE models(model) AS (SELECT (SELECT min(model) FROM _judge_answers)
  UNION ALL SELECT (SELECT min(a.model) FROM _judge_answers a WHERE a.model > m.model) FROM models m WHERE m.model IS \
NOT NULL)`

/** The SQL of the forgetting statements, by name, prepared once when the store opens. */
export const FORGET_SQL = {
  heldValues: `SELECT j.value AS state_hash FROM json_each(?) j
    WHERE EXISTS (SELECT 1 FROM _judge_states s WHERE s.state_hash = j.value)`,
  heldKept: `SELECT state_hash, count(*) AS n FROM _judge_kept WHERE ${KEPT} GROUP BY state_hash`,
  deleteValues: 'DELETE FROM _judge_states WHERE state_hash IN (SELECT value FROM json_each(?))',
  deleteHolds: 'DELETE FROM _judge_leases WHERE state_hash IN (SELECT value FROM json_each(?))',
  deleteKept: `DELETE FROM _judge_kept WHERE ${KEPT}`,
  statesWhere: `SELECT s.state_hash FROM _judge_states s
    WHERE EXISTS (SELECT 1 FROM json_each(s.state) e WHERE e.key = ? AND e.value = ?) ORDER BY s.state_hash`,
  expiredStates: `${MODELS}
    SELECT s.state_hash FROM _judge_states s INDEXED BY _judge_states_stored WHERE s.stored_at < ?3 AND (
      EXISTS (SELECT 1 FROM _judge_kept k WHERE k.judgment = ?1 AND k.state_hash = s.state_hash)
      OR EXISTS (SELECT 1 FROM models m CROSS JOIN json_each(?2) f CROSS JOIN _judge_answers a
        WHERE m.model IS NOT NULL AND a.model = m.model AND a.state_hash = s.state_hash AND a.fingerprint = f.value))
    ORDER BY s.state_hash`,
  putForgotten: 'INSERT INTO _judge_forgotten (forgotten_at, command, state_hash, place, count) VALUES (?, ?, ?, ?, ?)',
  forgottenLines: 'SELECT forgotten_at, command, state_hash, place, count FROM _judge_forgotten ORDER BY rowid',
  checkpoint: 'PRAGMA wal_checkpoint(TRUNCATE)',
} as const

/** The forgetting methods of a SQLite store, over its connection, statements and write transaction. */
export function forgetMethods(db: DatabaseSync, transaction: (work: () => void) => void): ForgetStore {
  const st = prepareEach(db, FORGET_SQL)
  const held = (plan: ForgetPlan): HeldState[] => {
    const bound = [JSON.stringify(plan.records), plan.stale?.judgment ?? null, plan.stale?.before ?? null] as const
    const counts = (rows: unknown[]) =>
      new Map((rows as { state_hash: string; n: number }[]).map((r) => [r.state_hash, r.n]))
    const values = new Set(
      (st.heldValues.all(JSON.stringify(plan.values)) as { state_hash: string }[]).map((r) => r.state_hash),
    )
    const kept = counts(st.heldKept.all(...bound))
    return [...new Set([...values, ...kept.keys()])]
      .sort()
      .map((stateHash) => ({ stateHash, values: values.has(stateHash), keptRows: kept.get(stateHash) ?? 0 }))
  }
  const write = (lines: readonly ForgottenLine[]) => {
    for (const l of lines) st.putForgotten.run(l.at, l.command, l.stateHash, l.place, l.count)
  }
  return {
    heldFor: held,
    forget(plan, stamp) {
      let states: HeldState[] = []
      transaction(() => {
        // A hold keeps no values, but its row is offered for review no more.
        st.deleteHolds.run(JSON.stringify(plan.values))
        states = held(plan)
        if (states.length === 0) return
        const bound = [JSON.stringify(plan.records), plan.stale?.judgment ?? null, plan.stale?.before ?? null] as const
        st.deleteValues.run(JSON.stringify(plan.values))
        st.deleteKept.run(...bound)
        write(states.flatMap((s) => forgetLogLines(s, stamp)))
      })
      // Folds the log into the file and empties it: the pages written before, values and all, go with it.
      const { busy } = st.checkpoint.get() as { busy: number }
      return { states, logCleared: busy === 0 }
    },
    statesWhere(column, value) {
      return (st.statesWhere.all(column, value) as { state_hash: string }[]).map((r) => r.state_hash)
    },
    expiredStates(judgment, fingerprints, before) {
      return (st.expiredStates.all(judgment, JSON.stringify(fingerprints), before) as { state_hash: string }[]).map(
        (r) => r.state_hash,
      )
    },
    recordForgotten(lines) {
      if (lines.length > 0) transaction(() => write(lines))
    },
    forgottenLines() {
      return st.forgottenLines.all().map(
        (r): ForgottenLine => ({
          at: r.forgotten_at as string,
          command: r.command as string,
          stateHash: r.state_hash as string,
          place: r.place as string,
          count: r.count as number,
        }),
      )
    },
  }
}

/** The forget log lines of one state's forgetting: one per place it was held in. */
export function forgetLogLines(
  state: HeldState,
  stamp: { readonly at: string; readonly command: string },
): ForgottenLine[] {
  const places: [string, number][] = [
    ['values', state.values ? 1 : 0],
    ['kept rows', state.keptRows],
  ]
  return places
    .filter(([, count]) => count > 0)
    .map(([place, count]) => ({ ...stamp, stateHash: state.stateHash, place, count }))
}
