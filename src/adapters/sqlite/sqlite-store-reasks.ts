import type { DatabaseSync } from 'node:sqlite'
import type { Reask, ReaskStore } from '../../ports/reask-store.ts'
import { prepareEach } from './sqlite-statements.ts'

const COLUMNS = `check_id, model, fingerprint, state_hash, judgment, question, stratum, stratum_size,
  stratum_sampled, stored_label, stored_p, stored_margin, distribution, label, p, margin, asked_at, reported_model,
  samples`

/** The SQL of the re-ask statements, by name, prepared once when the store opens. */
export const REASK_SQL = {
  putReask: `INSERT INTO _judge_reasks (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (model, fingerprint, check_id, state_hash) DO NOTHING`,
  // The latest check of a question, then its re-asks: both searches on the primary key.
  latestReasks: `SELECT ${COLUMNS} FROM _judge_reasks WHERE model = ?1 AND fingerprint = ?2
    AND check_id = (SELECT max(check_id) FROM _judge_reasks WHERE model = ?1 AND fingerprint = ?2)
    ORDER BY state_hash`,
} as const

interface ReaskRow {
  readonly check_id: string
  readonly model: string
  readonly fingerprint: string
  readonly state_hash: string
  readonly judgment: string
  readonly question: string
  readonly stratum: string
  readonly stratum_size: number
  readonly stratum_sampled: number
  readonly stored_label: string
  readonly stored_p: number
  readonly stored_margin: number
  readonly distribution: string
  readonly label: string
  readonly p: number
  readonly margin: number
  readonly asked_at: string
  readonly reported_model: string
  readonly samples: number | null
}

/** The re-ask methods of a SQLite store, over its connection and write transaction. */
export function reaskMethods(db: DatabaseSync, transaction: (work: () => void) => void): ReaskStore {
  const st = prepareEach(db, REASK_SQL)
  return {
    addReasks(reasks) {
      if (reasks.length === 0) return
      transaction(() => {
        for (const r of reasks) {
          st.putReask.run(
            r.check,
            r.model,
            r.fingerprint,
            r.stateHash,
            r.judgment,
            r.question,
            r.stratum,
            r.stratumSize,
            r.stratumSampled,
            r.storedLabel,
            r.storedP,
            r.storedMargin,
            JSON.stringify(r.distribution),
            r.label,
            r.p,
            r.margin,
            r.askedAt,
            r.reportedModel,
            r.samples ?? null,
          )
        }
      })
    },
    latestReasks(model, fingerprint) {
      return (st.latestReasks.all(model, fingerprint) as unknown as ReaskRow[]).map(reaskOf)
    },
  }
}

function reaskOf(row: ReaskRow): Reask {
  return {
    check: row.check_id,
    judgment: row.judgment,
    question: row.question,
    model: row.model,
    fingerprint: row.fingerprint,
    stateHash: row.state_hash,
    stratum: row.stratum,
    stratumSize: row.stratum_size,
    stratumSampled: row.stratum_sampled,
    storedLabel: row.stored_label,
    storedP: row.stored_p,
    storedMargin: row.stored_margin,
    distribution: JSON.parse(row.distribution),
    label: row.label,
    p: row.p,
    margin: row.margin,
    askedAt: row.asked_at,
    reportedModel: row.reported_model,
    samples: row.samples,
  }
}
