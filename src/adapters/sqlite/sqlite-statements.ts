import type { DatabaseSync, StatementSync } from 'node:sqlite'

// Answers are read as arrays, in this column order: the cache-hit path then builds no row objects.
const ANSWER = `a.model, a.fingerprint, a.state_hash, a.judgment, a.question, a.label, a.p, a.margin,
  a.distribution, a.asked_at`

/** An answer row as read: the columns of `_judge_answers` in the order the statements select them. */
export type AnswerRow = [model: string, fingerprint: string, stateHash: string, judgment: string,
  question: string, label: string, p: number, margin: number, distribution: string, askedAt: string]

const RUN = `run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at,
  finished_at, cached, requests`

/**
 * The SQL of every statement a store runs, by name. Lists of keys travel as one JSON array bound
 * to json_each, so that one prepared statement serves any length and the rows come back in the
 * order asked (j.key is the array index); CROSS JOIN keeps json_each the outer loop.
 */
export const SQL = {
  begin: 'BEGIN IMMEDIATE',
  beginRead: 'BEGIN DEFERRED',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',
  putAnswer: `INSERT INTO _judge_answers (model, fingerprint, state_hash, judgment, question, label,
      p, margin, distribution, asked_at, sample_rank) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (model, fingerprint, state_hash) DO NOTHING`,
  getAnswers: `SELECT ${ANSWER} FROM _judge_answers a WHERE a.model = ? AND a.state_hash = ?`,
  getAnswer: `SELECT ${ANSWER} FROM _judge_answers a
    WHERE a.model = ? AND a.state_hash = ? AND a.fingerprint = ?`,
  answeredFingerprints: 'SELECT a.fingerprint FROM _judge_answers a WHERE a.model = ? AND a.state_hash = ?',
  putState: `INSERT INTO _judge_states (state_hash, state) VALUES (?, ?)
    ON CONFLICT (state_hash) DO NOTHING`,
  getStates: `SELECT s.state_hash, s.state FROM json_each(?) j
    CROSS JOIN _judge_states s ON s.state_hash = j.value ORDER BY j.key`,
  answersForStates: `SELECT ${ANSWER} FROM json_each(?) j CROSS JOIN _judge_answers a
    ON a.model = ? AND a.fingerprint = ? AND a.state_hash = j.value ORDER BY j.key`,
  sampleAnswers: `SELECT ${ANSWER} FROM _judge_answers a WHERE a.model = ? AND a.fingerprint = ?
    ORDER BY a.sample_rank, a.state_hash LIMIT ?`,
  sampleBand: `SELECT ${ANSWER} FROM _judge_answers a INDEXED BY _judge_answers_sample
    WHERE a.model = ? AND a.fingerprint = ? AND a.margin >= ? AND a.margin < ?
    ORDER BY a.sample_rank, a.state_hash LIMIT ?`,
  countAnswers: 'SELECT count(*) AS n FROM _judge_answers WHERE model = ? AND fingerprint = ?',
  countBand: `SELECT count(*) AS n FROM _judge_answers
    WHERE model = ? AND fingerprint = ? AND margin >= ? AND margin < ?`,
  answerCells: `SELECT label, p, margin, count(*) AS count FROM _judge_answers
    WHERE model = ? AND fingerprint = ? GROUP BY label, p, margin ORDER BY label, p, margin`,
  putRun: `INSERT INTO _judge_runs (${RUN}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id) DO UPDATE SET judgment = excluded.judgment,
      spec_hash = excluded.spec_hash, git_sha = excluded.git_sha, model = excluded.model,
      rows = excluded.rows, asked = excluded.asked, cost = excluded.cost, status = excluded.status,
      started_at = excluded.started_at, finished_at = excluded.finished_at,
      cached = excluded.cached, requests = excluded.requests`,
  clearRunLabels: 'DELETE FROM _judge_run_labels WHERE run_id = ?',
  putRunLabel: `INSERT INTO _judge_run_labels (run_id, question, label, count) VALUES (?, ?, ?, ?)
    ON CONFLICT (run_id, question, label) DO UPDATE SET count = count + excluded.count`,
  listRuns: `SELECT ${RUN} FROM _judge_runs
    WHERE judgment IN (SELECT value FROM json_each(?))
    ORDER BY started_at DESC, run_id DESC LIMIT ?`,
  runLabelCounts: `SELECT l.run_id, l.question, l.label, l.count, r.rows, r.started_at
    FROM _judge_runs r JOIN _judge_run_labels l ON l.run_id = r.run_id
    WHERE r.judgment = ? ORDER BY r.started_at, r.run_id, l.rowid`,
  keepRow: `INSERT INTO _judge_kept (judgment, state_hash, first_seen, last_seen, seen)
      VALUES (?, ?, ?, ?, 1)
    ON CONFLICT (judgment, state_hash) DO UPDATE SET
      first_seen = min(first_seen, excluded.first_seen),
      last_seen = max(last_seen, excluded.last_seen), seen = seen + 1`,
  keptRows: `SELECT k.judgment, k.state_hash, s.state, k.first_seen, k.last_seen, k.seen
    FROM _judge_kept k JOIN _judge_states s ON s.state_hash = k.state_hash
    WHERE k.judgment = ? ORDER BY k.first_seen, k.rowid`,
  putShadow: `INSERT INTO _judge_shadows (live_judgment, candidate_judgment, candidate_hash,
      state_hash, question, live_label, candidate_label, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (live_judgment, candidate_judgment, candidate_hash, state_hash, question)
    DO UPDATE SET live_label = excluded.live_label, candidate_label = excluded.candidate_label,
      at = excluded.at`,
  shadowPairs: `SELECT live_judgment, candidate_judgment, candidate_hash, state_hash, question,
      live_label, candidate_label, at
    FROM _judge_shadows WHERE live_judgment = ? ORDER BY at, rowid`,
} as const

const ANSWER_STATEMENTS: ReadonlySet<string> = new Set(['getAnswers', 'getAnswer', 'answeredFingerprints',
  'answersForStates', 'sampleAnswers', 'sampleBand'])

/** Every statement a store runs, prepared once when the store opens. */
export type Statements = { readonly [K in keyof typeof SQL]: StatementSync }

/** Prepares every statement of the store on an open, migrated database. */
export function prepareStatements(db: DatabaseSync): Statements {
  const prepared: Record<string, StatementSync> = {}
  for (const [name, sql] of Object.entries(SQL)) {
    prepared[name] = db.prepare(sql)
    if (ANSWER_STATEMENTS.has(name)) prepared[name].setReturnArrays(true)
  }
  return prepared as Statements
}

/** A limit as SQLite's LIMIT: 0 or less (or NaN) is none, Infinity is all (SQLite's -1). */
export function sqlLimit(limit: number): number {
  if (limit === Infinity) return -1
  return Number.isFinite(limit) ? Math.max(0, Math.trunc(limit)) : 0
}
