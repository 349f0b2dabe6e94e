import type { Migration } from './sqlite-base-migrations.ts'

/**
 * The step that lets rows be forgotten: the forget log, what was forgotten (`_judge_forgotten`, never
 * any values), when each state's values were last stored (`stored_at`, which retention compares;
 * a state from before takes the latest time an answer for it was asked or it was kept), and the
 * indexes that find a state's kept rows and the expired values without a scan.
 */
export function forgetMigration(version: number): Migration {
  return {
    version,
    sql: `
      CREATE TABLE _judge_forgotten (
        forgotten_at TEXT NOT NULL,
        command      TEXT NOT NULL,
        state_hash   TEXT NOT NULL,
        place        TEXT NOT NULL,
        count        INTEGER NOT NULL
      );
      CREATE INDEX _judge_forgotten_state ON _judge_forgotten (state_hash);

      ALTER TABLE _judge_states ADD COLUMN stored_at TEXT NOT NULL DEFAULT '';
      UPDATE _judge_states SET stored_at = t.at FROM (
        SELECT state_hash, max(at) AS at FROM (
          SELECT state_hash, asked_at AS at FROM _judge_answers
          UNION ALL SELECT state_hash, last_seen FROM _judge_kept)
        GROUP BY state_hash) AS t
      WHERE t.state_hash = _judge_states.state_hash;
      CREATE INDEX _judge_states_stored ON _judge_states (stored_at);

      CREATE INDEX _judge_kept_state ON _judge_kept (state_hash);
    `,
  }
}
