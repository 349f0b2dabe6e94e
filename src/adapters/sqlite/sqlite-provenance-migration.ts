/**
 * The step that records what each run ran on: the model the engine reported beside each answer
 * and run, each run's command, source, node and question fingerprints, the states a run judged
 * (keyed by a small run number, `seq`, so that a million states cost 16 bytes of hash each and
 * little more), model checks, and the shadow candidates seen. Existing answers get an empty
 * `reported_model` (read as the model asked) instead of a rewrite of every row.
 */
export function runProvenanceMigration(version: number): { readonly version: number; readonly sql: string } {
  return {
    version,
    sql: `
      ALTER TABLE _judge_answers ADD COLUMN reported_model TEXT NOT NULL DEFAULT '';

      ALTER TABLE _judge_runs ADD COLUMN command TEXT NOT NULL DEFAULT '';
      ALTER TABLE _judge_runs ADD COLUMN source TEXT NOT NULL DEFAULT '';
      ALTER TABLE _judge_runs ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';
      ALTER TABLE _judge_runs ADD COLUMN node TEXT NOT NULL DEFAULT '';
      ALTER TABLE _judge_runs ADD COLUMN reported_model TEXT NOT NULL DEFAULT '';
      ALTER TABLE _judge_runs ADD COLUMN states INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE _judge_runs ADD COLUMN fingerprints TEXT NOT NULL DEFAULT '{}';
      ALTER TABLE _judge_runs ADD COLUMN seq INTEGER;
      UPDATE _judge_runs SET seq = rowid;
      CREATE UNIQUE INDEX _judge_runs_seq ON _judge_runs (seq);

      CREATE TABLE _judge_run_states (
        run        INTEGER NOT NULL REFERENCES _judge_runs (seq) ON DELETE CASCADE,
        state_hash TEXT NOT NULL,
        rows       INTEGER NOT NULL,
        PRIMARY KEY (run, state_hash)
      ) WITHOUT ROWID;

      CREATE TABLE _judge_model_checks (
        run_id    TEXT PRIMARY KEY NOT NULL REFERENCES _judge_runs (run_id) ON DELETE CASCADE,
        baseline  TEXT NOT NULL,
        old_model TEXT NOT NULL,
        new_model TEXT NOT NULL,
        rows_from TEXT NOT NULL,
        states    INTEGER NOT NULL,
        same_rows INTEGER NOT NULL,
        stopped   TEXT NOT NULL,
        asked     INTEGER NOT NULL,
        cost      REAL NOT NULL
      );
      CREATE TABLE _judge_model_pairs (
        run_id    TEXT NOT NULL REFERENCES _judge_model_checks (run_id) ON DELETE CASCADE,
        question  TEXT NOT NULL,
        old_label TEXT NOT NULL,
        new_label TEXT NOT NULL,
        rows      INTEGER NOT NULL,
        PRIMARY KEY (run_id, question, old_label, new_label)
      ) WITHOUT ROWID;

      CREATE TABLE _judge_candidates (
        judgment    TEXT NOT NULL,
        spec_hash   TEXT NOT NULL,
        question    TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        seen_at     TEXT NOT NULL,
        PRIMARY KEY (judgment, spec_hash, question)
      ) WITHOUT ROWID;
    `,
  }
}
