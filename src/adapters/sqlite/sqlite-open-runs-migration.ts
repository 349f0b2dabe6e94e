import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps the runs still going (ports/run-store.ts, OpenRun): one row per run, written
 * as its answers are stored, its record and label counts as JSON, with the process that runs it. A
 * run's record in `_judge_runs` ends it; an abandoned one is recorded there `failed: interrupted`.
 */
export function openRunsMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_open_runs (
        run_id       TEXT PRIMARY KEY,
        pid          INTEGER NOT NULL,
        host         TEXT NOT NULL,
        heartbeat_at TEXT NOT NULL,
        record       TEXT NOT NULL,
        counts       TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  }
}
