import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps, beside each run's rows per label, how repeated those rows are: the distinct
 * states among them and the sum of each state's rows squared (Σ m²), from which drift's test
 * weighs repeated rows (core/stats/design-effect.ts). Both are NULL for the runs recorded
 * before, whose rows the test counts as independent, as it did.
 */
export function labelStatesMigration(version: number): Migration {
  return {
    version,
    sql: `
      ALTER TABLE _judge_run_labels ADD COLUMN states INTEGER;
      ALTER TABLE _judge_run_labels ADD COLUMN squares INTEGER;
    `,
  }
}
