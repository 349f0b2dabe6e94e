import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps the bulk lane's submissions (ports/batch-store.ts): per batch its tag, judgment,
 * run, model, the provider's file and batch ids, state, counts, estimate and times; per item the
 * state hash and the fingerprints of the questions it asks. Hashes only: a state's values stay in
 * the data file and `_judge_states`.
 */
export function batchesMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE IF NOT EXISTS _judge_batches (
        tag           TEXT PRIMARY KEY NOT NULL,
        judgment      TEXT NOT NULL,
        run_id        TEXT NOT NULL,
        model         TEXT NOT NULL,
        input_file_id TEXT,
        batch_id      TEXT,
        state         TEXT NOT NULL,
        total         INTEGER NOT NULL,
        completed     INTEGER NOT NULL,
        failed        INTEGER NOT NULL,
        estimate      REAL NOT NULL,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        landed_at     TEXT
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS _judge_batches_judgment ON _judge_batches (judgment, created_at);

      CREATE TABLE IF NOT EXISTS _judge_batch_items (
        tag          TEXT NOT NULL REFERENCES _judge_batches (tag) ON DELETE CASCADE,
        item_key     TEXT NOT NULL,
        state_hash   TEXT NOT NULL,
        fingerprints TEXT NOT NULL,
        PRIMARY KEY (tag, item_key)
      ) WITHOUT ROWID;
    `,
  }
}
