import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps what the engine does beyond one answer: the cut of each engine's pace after a
 * refusal (core/pacing/adaptive-rate.ts), shared by every process as the pace is; and the checks of
 * the engine's stability, whose re-asked answers live apart from the cached ones and never replace
 * them (app/stability.ts).
 */
export function stabilityMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_pace_cuts (
        key     TEXT PRIMARY KEY NOT NULL,
        at      REAL NOT NULL,
        ceiling REAL NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE _judge_stability (
        check_id  TEXT PRIMARY KEY NOT NULL,
        judgment  TEXT NOT NULL,
        spec_hash TEXT NOT NULL,
        model     TEXT NOT NULL,
        at        TEXT NOT NULL,
        report    TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX _judge_stability_judgment ON _judge_stability (judgment, at);

      CREATE TABLE _judge_reasks (
        check_id     TEXT NOT NULL REFERENCES _judge_stability (check_id) ON DELETE CASCADE,
        fingerprint  TEXT NOT NULL,
        state_hash   TEXT NOT NULL,
        question     TEXT NOT NULL,
        stratum      TEXT NOT NULL,
        weight       REAL NOT NULL,
        cached_label TEXT NOT NULL,
        cached_p     REAL NOT NULL,
        label        TEXT NOT NULL,
        p            REAL NOT NULL,
        distribution TEXT NOT NULL,
        PRIMARY KEY (check_id, fingerprint, state_hash)
      ) WITHOUT ROWID;
    `,
  }
}
