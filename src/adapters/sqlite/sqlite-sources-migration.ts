import { gridKeySql, nanosSql } from '../../core/tally/grid.ts'
import type { Migration } from './sqlite-base-migrations.ts'

// Whether an answer row (NEW or OLD in a trigger) is a jury's that some juror dissented from: the `split` stratum.
const splitOf = (row: string) => `(coalesce(${row}dissent, 0) > 0)`
// The cell of an answer row, its split last.
const cell = (row: string) =>
  `${row}model, ${row}fingerprint, ${row}label, ${gridKeySql(`${row}p`)}, ${gridKeySql(`${row}margin`)}, ` +
  splitOf(row)
const where = (row: string) => `model = ${row}model AND fingerprint = ${row}fingerprint AND label = ${row}label
      AND p_key = ${gridKeySql(`${row}p`)} AND margin_key = ${gridKeySql(`${row}margin`)}
      AND split = ${splitOf(row)}`

/**
 * The step that keeps how each answer's p was obtained (docs/engine.md, "Where p comes from"): its
 * source (NULL for every answer stored before), the k answers a sampled or text answer is the share
 * of, and a jury's dissent (jurors that named another label); each run's answers per source and
 * question, as JSON (`{}` before); and the k draws a stability re-ask was read from instead of
 * asked (NULL for one asked again, as every re-ask before). The answer tally gains the `split`
 * flag (dissent above 0) in its key, so that the review's `split` stratum is counted from it: the
 * table is built again, every answer stored before being in no split (its dissent is NULL), and
 * its triggers with it.
 */
export function sourcesMigration(version: number): Migration {
  return {
    version,
    sql: `
      ALTER TABLE _judge_answers ADD COLUMN p_source TEXT;
      ALTER TABLE _judge_answers ADD COLUMN samples INTEGER;
      ALTER TABLE _judge_answers ADD COLUMN dissent INTEGER;
      ALTER TABLE _judge_runs ADD COLUMN sources TEXT NOT NULL DEFAULT '{}';
      ALTER TABLE _judge_reasks ADD COLUMN samples INTEGER;

      DROP TRIGGER _judge_answers_tally_add;
      DROP TRIGGER _judge_answers_tally_remove;
      CREATE TABLE _judge_answer_tally_split (
        model       TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        label       TEXT NOT NULL,
        p_key       INTEGER NOT NULL,
        margin_key  INTEGER NOT NULL,
        split       INTEGER NOT NULL,
        answers     INTEGER NOT NULL,
        p_nanos     INTEGER NOT NULL,
        PRIMARY KEY (model, fingerprint, label, p_key, margin_key, split)
      ) WITHOUT ROWID;
      INSERT INTO _judge_answer_tally_split
        SELECT model, fingerprint, label, p_key, margin_key, 0, answers, p_nanos FROM _judge_answer_tally;
      DROP TABLE _judge_answer_tally;
      ALTER TABLE _judge_answer_tally_split RENAME TO _judge_answer_tally;

      CREATE TRIGGER _judge_answers_tally_add AFTER INSERT ON _judge_answers BEGIN
        INSERT INTO _judge_answer_tally VALUES (${cell('NEW.')}, 1, ${nanosSql('NEW.p')})
          ON CONFLICT DO UPDATE SET answers = answers + 1, p_nanos = p_nanos + excluded.p_nanos;
      END;

      CREATE TRIGGER _judge_answers_tally_remove AFTER DELETE ON _judge_answers BEGIN
        UPDATE _judge_answer_tally SET answers = answers - 1, p_nanos = p_nanos - ${nanosSql('OLD.p')}
          WHERE ${where('OLD.')};
        DELETE FROM _judge_answer_tally WHERE ${where('OLD.')} AND answers = 0;
      END;
    `,
  }
}
