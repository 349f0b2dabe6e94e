import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that keeps how well each question fits its rows: every answer's option mass (the share
 * of the model's next-token probability on the offered labels, NULL when the engine gave none, as
 * for every answer stored before), and each run's fit per question, as JSON (`{}` before).
 */
export function fitMigration(version: number): Migration {
  return {
    version,
    sql: `
      ALTER TABLE _judge_answers ADD COLUMN option_mass REAL;
      ALTER TABLE _judge_runs ADD COLUMN fit TEXT NOT NULL DEFAULT '{}';
    `,
  }
}
