import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps the cut of each engine's pace after the engine refused its rate (429): when,
 * and the rate refused (core/pacing/adaptive-rate.ts). It lives beside the pace, so that every
 * process on the store keeps the lowered rate, as it keeps the pace.
 */
export function paceCutsMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_pace_cuts (
        key     TEXT PRIMARY KEY NOT NULL,
        at      REAL NOT NULL,
        ceiling REAL NOT NULL
      ) WITHOUT ROWID;
    `,
  }
}
