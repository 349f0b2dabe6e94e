import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step after which a review hold keeps no row values: each held card's `state` is taken out
 * (the card is built again from `_judge_states` or the answer key when shown, docs/review.md,
 * Leases), a card that does not read as JSON is emptied, and holds get an index on their end, so
 * that every write deletes the ended ones in one search. The deleted bytes are overwritten
 * (`secure_delete`), and the migration's pages folded into the file at once (sqlite-schema.ts).
 */
export function leaseValuesMigration(version: number): Migration {
  return {
    version,
    sql: `
      UPDATE _judge_leases SET card = CASE WHEN json_valid(card) THEN json_remove(card, '$.state') ELSE '{}' END;
      CREATE INDEX IF NOT EXISTS _judge_leases_until ON _judge_leases (until);
    `,
  }
}
