import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps the review queue's holds: which row of which question is held for which
 * reviewer, until when, and the card as it was offered (docs/review.md, Leases). It lives in the
 * store so that every worker, server and process on one store sees the same holds.
 */
export function leasesMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_leases (
        judgment   TEXT NOT NULL,
        question   TEXT NOT NULL,
        state_hash TEXT NOT NULL,
        reviewer   TEXT NOT NULL,
        until      REAL NOT NULL,
        place      INTEGER NOT NULL,
        card       TEXT NOT NULL,
        PRIMARY KEY (judgment, question, state_hash)
      ) WITHOUT ROWID;
      CREATE INDEX _judge_leases_reviewer ON _judge_leases (judgment, reviewer);
    `,
  }
}
