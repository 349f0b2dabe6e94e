/** One forward step of the schema: the SQL that takes a store from `version - 1` to `version`. */
export interface Migration {
  readonly version: number
  readonly sql: string
}

// Append only: a step that shipped is never edited, because stores in the field already ran it.
/** The first steps of the schema: answers, states, runs and their label counts, kept rows, shadows, pace and spend. */
export const BASE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE _judge_answers (
        model        TEXT NOT NULL,
        fingerprint  TEXT NOT NULL,
        state_hash   TEXT NOT NULL,
        judgment     TEXT NOT NULL,
        question     TEXT NOT NULL,
        label        TEXT NOT NULL,
        p            REAL NOT NULL,
        margin       REAL NOT NULL,
        distribution TEXT NOT NULL,
        asked_at     TEXT NOT NULL,
        sample_rank  INTEGER NOT NULL,
        PRIMARY KEY (model, fingerprint, state_hash)
      ) WITHOUT ROWID;
      CREATE INDEX _judge_answers_sample ON _judge_answers (model, fingerprint, sample_rank);
      CREATE INDEX _judge_answers_margin ON _judge_answers (model, fingerprint, margin);

      CREATE TABLE _judge_states (
        state_hash TEXT PRIMARY KEY NOT NULL,
        state      TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE _judge_runs (
        run_id      TEXT PRIMARY KEY NOT NULL,
        judgment    TEXT NOT NULL,
        spec_hash   TEXT NOT NULL,
        git_sha     TEXT NOT NULL,
        model       TEXT NOT NULL,
        rows        INTEGER NOT NULL,
        asked       INTEGER NOT NULL,
        cost        REAL NOT NULL,
        status      TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        cached      INTEGER NOT NULL,
        requests    INTEGER NOT NULL
      );
      CREATE INDEX _judge_runs_judgment ON _judge_runs (judgment, started_at);

      CREATE TABLE _judge_run_labels (
        run_id   TEXT NOT NULL REFERENCES _judge_runs (run_id) ON DELETE CASCADE,
        question TEXT NOT NULL,
        label    TEXT NOT NULL,
        count    INTEGER NOT NULL,
        PRIMARY KEY (run_id, question, label)
      );

      CREATE TABLE _judge_kept (
        judgment   TEXT NOT NULL,
        state_hash TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen  TEXT NOT NULL,
        seen       INTEGER NOT NULL,
        PRIMARY KEY (judgment, state_hash)
      );
      CREATE INDEX _judge_kept_first_seen ON _judge_kept (judgment, first_seen);

      CREATE TABLE _judge_shadows (
        live_judgment      TEXT NOT NULL,
        candidate_judgment TEXT NOT NULL,
        candidate_hash     TEXT NOT NULL,
        state_hash         TEXT NOT NULL,
        question           TEXT NOT NULL,
        live_label         TEXT NOT NULL,
        candidate_label    TEXT NOT NULL,
        at                 TEXT NOT NULL,
        PRIMARY KEY (live_judgment, candidate_judgment, candidate_hash, state_hash, question)
      );
    `,
  },
  {
    // The cache lookup of a row asks for every question of one state: keyed by state before
    // question, those answers share one leaf of the tree and one search finds them all.
    version: 2,
    sql: `
      CREATE TABLE _judge_answers_by_state (
        model        TEXT NOT NULL,
        fingerprint  TEXT NOT NULL,
        state_hash   TEXT NOT NULL,
        judgment     TEXT NOT NULL,
        question     TEXT NOT NULL,
        label        TEXT NOT NULL,
        p            REAL NOT NULL,
        margin       REAL NOT NULL,
        distribution TEXT NOT NULL,
        asked_at     TEXT NOT NULL,
        sample_rank  INTEGER NOT NULL,
        PRIMARY KEY (model, state_hash, fingerprint)
      ) WITHOUT ROWID;
      INSERT INTO _judge_answers_by_state SELECT model, fingerprint, state_hash, judgment, question,
        label, p, margin, distribution, asked_at, sample_rank FROM _judge_answers;
      DROP TABLE _judge_answers;
      ALTER TABLE _judge_answers_by_state RENAME TO _judge_answers;
      CREATE INDEX _judge_answers_sample ON _judge_answers (model, fingerprint, sample_rank);
      CREATE INDEX _judge_answers_margin ON _judge_answers (model, fingerprint, margin);
    `,
  },
  {
    // The review sample is drawn per stratum of margin, in rank order: with the margin in the
    // rank index, a stratum is read off the index alone, without a lookup per row skipped.
    version: 3,
    sql: `
      DROP INDEX _judge_answers_sample;
      CREATE INDEX _judge_answers_sample ON _judge_answers (model, fingerprint, sample_rank, state_hash, margin);
    `,
  },
  {
    // Pacing shared by every process on the store (the next free send time per engine), and the
    // engine spend per day, for the server's daily cap.
    version: 4,
    sql: `
      CREATE TABLE _judge_pace (
        key     TEXT PRIMARY KEY NOT NULL,
        next_at REAL NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE _judge_spend (
        day      TEXT NOT NULL,
        source   TEXT NOT NULL,
        cost     REAL NOT NULL,
        requests INTEGER NOT NULL,
        PRIMARY KEY (day, source)
      ) WITHOUT ROWID;
    `,
  },
]
