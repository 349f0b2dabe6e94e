import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps the re-asks of stability checks (`judge stability`, docs/engine.md) apart
 * from the answer cache: per check, question and state, the stored answer's label, p and margin,
 * the engine's second answer, and the stratum it was drawn from with its size and sample. Hashes
 * and labels only, as the answers hold: a state's values stay in `_judge_states`.
 */
export function reasksMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_reasks (
        check_id        TEXT NOT NULL,
        model           TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        state_hash      TEXT NOT NULL,
        judgment        TEXT NOT NULL,
        question        TEXT NOT NULL,
        stratum         TEXT NOT NULL,
        stratum_size    INTEGER NOT NULL,
        stratum_sampled INTEGER NOT NULL,
        stored_label    TEXT NOT NULL,
        stored_p        REAL NOT NULL,
        stored_margin   REAL NOT NULL,
        distribution    TEXT NOT NULL,
        label           TEXT NOT NULL,
        p               REAL NOT NULL,
        margin          REAL NOT NULL,
        asked_at        TEXT NOT NULL,
        reported_model  TEXT NOT NULL,
        PRIMARY KEY (model, fingerprint, check_id, state_hash)
      ) WITHOUT ROWID;
    `,
  }
}
