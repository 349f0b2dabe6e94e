import type { DatabaseSync } from 'node:sqlite'
import type { BatchEntry, BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import { prepareEach } from './sqlite-statements.ts'

const COLUMNS = `tag, judgment, run_id, model, input_file_id, batch_id, state, total, completed, failed, estimate,
  created_at, updated_at, landed_at`

/** The SQL of the batch statements, by name, prepared when the group is first used. */
export const BATCH_SQL = {
  putBatch: `INSERT INTO _judge_batches (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (tag) DO NOTHING`,
  putItem: `INSERT INTO _judge_batch_items (tag, item_key, state_hash, fingerprints) VALUES (?, ?, ?, ?)
    ON CONFLICT (tag, item_key) DO NOTHING`,
  getBatch: `SELECT ${COLUMNS} FROM _judge_batches WHERE tag = ?`,
  setBatch: `UPDATE _judge_batches SET input_file_id = ?, batch_id = ?, state = ?, total = ?, completed = ?,
    failed = ?, updated_at = ?, landed_at = ? WHERE tag = ?`,
  allBatches: `SELECT ${COLUMNS} FROM _judge_batches ORDER BY created_at DESC, tag DESC`,
  items: `SELECT item_key, state_hash, fingerprints FROM _judge_batch_items WHERE tag = ? ORDER BY item_key`,
} as const

interface BatchRow {
  readonly tag: string
  readonly judgment: string
  readonly run_id: string
  readonly model: string
  readonly input_file_id: string | null
  readonly batch_id: string | null
  readonly state: string
  readonly total: number
  readonly completed: number
  readonly failed: number
  readonly estimate: number
  readonly created_at: string
  readonly updated_at: string
  readonly landed_at: string | null
}

/** The batch methods of a SQLite store, over its connection and write transaction. */
export function batchMethods(db: DatabaseSync, transaction: (work: () => void) => void): BatchStore {
  const st = prepareEach(db, BATCH_SQL)
  const put = (b: BatchRecord) =>
    st.putBatch.run(
      ...[b.tag, b.judgment, b.runId, b.model, b.inputFileId, b.batchId, b.state, b.total, b.completed, b.failed],
      ...[b.estimate, b.createdAt, b.updatedAt, b.landedAt],
    ).changes > 0
  return {
    recordBatch(batch, entries) {
      transaction(() => {
        if (!put(batch)) return
        for (const e of entries) st.putItem.run(batch.tag, e.key, e.stateHash, JSON.stringify(e.fingerprints))
      })
    },
    updateBatch(tag, change) {
      let found = false
      transaction(() => {
        const row = st.getBatch.get(tag) as BatchRow | undefined
        if (!row) return
        found = true
        const b = { ...batchOf(row), ...change }
        st.setBatch.run(b.inputFileId, b.batchId, b.state, b.total, b.completed, b.failed, b.updatedAt, b.landedAt, tag)
      })
      return found
    },
    listBatches(judgments) {
      const all = (st.allBatches.all() as unknown as BatchRow[]).map(batchOf)
      return judgments === undefined ? all : all.filter((b) => judgments.includes(b.judgment))
    },
    batchEntries(tag) {
      return (st.items.all(tag) as unknown as { item_key: string; state_hash: string; fingerprints: string }[]).map(
        (row): BatchEntry => ({
          key: row.item_key,
          stateHash: row.state_hash,
          fingerprints: JSON.parse(row.fingerprints),
        }),
      )
    },
  }
}

function batchOf(row: BatchRow): BatchRecord {
  return {
    tag: row.tag,
    judgment: row.judgment,
    runId: row.run_id,
    model: row.model,
    inputFileId: row.input_file_id,
    batchId: row.batch_id,
    state: row.state,
    total: row.total,
    completed: row.completed,
    failed: row.failed,
    estimate: row.estimate,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    landedAt: row.landed_at,
  }
}
