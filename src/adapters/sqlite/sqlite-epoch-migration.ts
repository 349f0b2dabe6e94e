import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that gives the store its answers epoch: a counter in `_judge_meta` that every deletion
 * of answers moves in its own transaction, so that a process holding answers or replies made from
 * them (the server's answer cache and kept replies) sees, by one read, that they may be stale.
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
