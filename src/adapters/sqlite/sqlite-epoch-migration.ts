import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that added `_judge_meta` with its `answers_epoch` counter, once moved by every deletion
 * of answers. Nothing moves or reads it any more: the store's write mark (SQLite's data_version and
 * the connection's changes) is its one staleness signal. The step stays, as every step does, so
 * that a store is the same whatever version created it.
 */
export function answersEpochMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_meta (
        key   TEXT PRIMARY KEY NOT NULL,
        value INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO _judge_meta (key, value) VALUES ('answers_epoch', 0);
    `,
  }
}
