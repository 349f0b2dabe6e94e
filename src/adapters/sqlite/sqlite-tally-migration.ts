import { gridKeySql, nanosSql } from '../../core/tally/grid.ts'
import type { Migration } from './sqlite-base-migrations.ts'

// The cell of an answer row (NEW or OLD in a trigger, the table's own columns in the fill).
const cell = (row: string) =>
  `${row}model, ${row}fingerprint, ${row}label, ${gridKeySql(`${row}p`)}, ${gridKeySql(`${row}margin`)}`
const where = (row: string) => `model = ${row}model AND fingerprint = ${row}fingerprint AND label = ${row}label
      AND p_key = ${gridKeySql(`${row}p`)} AND margin_key = ${gridKeySql(`${row}margin`)}`

/**
 * The step that keeps the answer tally: per model, fingerprint, label and grid cell of p and margin
 * (core/tally/grid.ts), how many answers the store holds and their p summed in nanos. Triggers keep
 * it in the transaction of every answer written or deleted, whichever process writes; the answers
 * stored before are counted into it once, here, one at a time into the cells (a GROUP BY would
 * sort every answer first: 8 s for a million, against 3). A cell whose last answer goes is deleted.
 */
export function tallyMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_answer_tally (
        model       TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        label       TEXT NOT NULL,
        p_key       INTEGER NOT NULL,
        margin_key  INTEGER NOT NULL,
        answers     INTEGER NOT NULL,
        p_nanos     INTEGER NOT NULL,
        PRIMARY KEY (model, fingerprint, label, p_key, margin_key)
      ) WITHOUT ROWID;

      INSERT INTO _judge_answer_tally
        SELECT ${cell('')}, 1, ${nanosSql('p')} FROM _judge_answers WHERE true
        ON CONFLICT DO UPDATE SET answers = answers + 1, p_nanos = p_nanos + excluded.p_nanos;

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
