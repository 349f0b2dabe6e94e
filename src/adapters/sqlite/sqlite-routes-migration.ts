import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps each run's rows per route: per question with `act` rules, how many rows
 * each route took, as JSON (`{}` for runs recorded before).
 */
export function routesMigration(version: number): Migration {
  return {
    version,
    sql: `
      ALTER TABLE _judge_runs ADD COLUMN routes TEXT NOT NULL DEFAULT '{}';
    `,
  }
}
