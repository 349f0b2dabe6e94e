import type { DatabaseSync, StatementSync } from 'node:sqlite'

// Answers are read as arrays, in this column order: the cache-hit path then builds no row objects.
const ANSWER = `a.model, a.fingerprint, a.state_hash, a.judgment, a.question, a.label, a.p, a.margin,
  a.distribution, a.asked_at, a.reported_model, a.option_mass, a.p_source, a.samples, a.dissent`

/** An answer row as read: the columns of `_judge_answers` in the order the statements select them. */
export type AnswerRow = [
  model: string,
  fingerprint: string,
  stateHash: string,
  judgment: string,
  question: string,
  label: string,
  p: number,
  margin: number,
  distribution: string,
  askedAt: string,
  reportedModel: string,
  optionMass: number | null,
  source: string | null,
  samples: number | null,
  dissent: number | null,
]

const RUN = `run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at,
  finished_at, cached, requests, command, source, source_hash, node, reported_model, states,
  fingerprints, fit, routes, sources`

// A run's states are keyed by its small number, not its id (docs/store.md).
const SEQ = '(SELECT seq FROM _judge_runs WHERE run_id = ?)'

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
      p, margin, distribution, asked_at, sample_rank, reported_model, option_mass, p_source, samples, dissent)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (model, fingerprint, state_hash) DO NOTHING`,
  // A plain DELETE, so that the answer tally's delete trigger counts the answer out before its replacement is put.
  dropAnswer: 'DELETE FROM _judge_answers WHERE model = ? AND fingerprint = ? AND state_hash = ?',
  getAnswers: `SELECT ${ANSWER} FROM _judge_answers a WHERE a.model = ? AND a.state_hash = ?`,
  getAnswer: `SELECT ${ANSWER} FROM _judge_answers a
    WHERE a.model = ? AND a.state_hash = ? AND a.fingerprint = ?`,
  answeredFingerprints: 'SELECT a.fingerprint FROM _judge_answers a WHERE a.model = ? AND a.state_hash = ?',
  putState: `INSERT INTO _judge_states (state_hash, state, stored_at) VALUES (?, ?, ?)
    ON CONFLICT (state_hash) DO UPDATE SET stored_at = max(stored_at, excluded.stored_at)`,
  getStates: `SELECT s.state_hash, s.state FROM json_each(?) j
    CROSS JOIN _judge_states s ON s.state_hash = j.value ORDER BY j.key`,
  answersForStates: `SELECT ${ANSWER} FROM json_each(?) j CROSS JOIN _judge_answers a
    ON a.model = ? AND a.fingerprint = ? AND a.state_hash = j.value ORDER BY j.key`,
  answerLabels: `SELECT a.fingerprint, a.state_hash, a.label FROM json_each(?) j CROSS JOIN _judge_answers a
    ON a.model = ? AND a.state_hash = j.value`,
  sampleAnswers: `SELECT ${ANSWER} FROM _judge_answers a WHERE a.model = ? AND a.fingerprint = ?
    ORDER BY a.sample_rank, a.state_hash LIMIT ?`,
  sampleBand: `SELECT ${ANSWER} FROM _judge_answers a INDEXED BY _judge_answers_sample
    WHERE a.model = ? AND a.fingerprint = ? AND a.margin >= ? AND a.margin < ?
    ORDER BY a.sample_rank, a.state_hash LIMIT ?`,
  // A band of the split stratum or of the others (docs/store.md): a jury's dissent is read from each answer's row.
  sampleSplitBand: `SELECT ${ANSWER} FROM _judge_answers a INDEXED BY _judge_answers_sample
    WHERE a.model = ? AND a.fingerprint = ? AND a.margin >= ? AND a.margin < ? AND (coalesce(a.dissent, 0) > 0) = ?
    ORDER BY a.sample_rank, a.state_hash LIMIT ?`,
  countBand: `SELECT count(*) AS n FROM _judge_answers
    WHERE model = ? AND fingerprint = ? AND margin >= ? AND margin < ?`,
  countSplitBand: `SELECT count(*) AS n FROM _judge_answers
    WHERE model = ? AND fingerprint = ? AND margin >= ? AND margin < ? AND (coalesce(dissent, 0) > 0) = ?`,
  answerCells: `SELECT label, p, margin, count(*) AS count, coalesce(dissent, 0) > 0 AS split FROM _judge_answers
    WHERE model = ? AND fingerprint = ? GROUP BY label, p, margin, split ORDER BY label, p, margin, split`,
  // NULL: answers stored before their source was kept.
  countSources: `SELECT p_source, count(*) AS n FROM _judge_answers
    WHERE model = ? AND fingerprint = ? GROUP BY p_source ORDER BY p_source`,
  // The tally's cells and counts (docs/store.md): a band's ends are cells of the grid here.
  // p_nanos as a real: exact to 2^53 (nine million answers of p = 1 in one cell), rounded past it.
  tallyCells: `SELECT label, p_key, margin_key, answers, CAST(p_nanos AS REAL) AS p_nanos, split
    FROM _judge_answer_tally WHERE model = ? AND fingerprint = ? ORDER BY label, p_key, margin_key, split`,
  // The answer tally is small (a row per model, fingerprint, label and grid cell): read whole, it costs nothing.
  modelCounts: `SELECT model, sum(answers) AS n FROM _judge_answer_tally
    WHERE fingerprint IN (SELECT value FROM json_each(?)) GROUP BY model ORDER BY model`,
  tallyCount: `SELECT coalesce(sum(answers), 0) AS n FROM _judge_answer_tally
    WHERE model = ? AND fingerprint = ? AND margin_key >= ? AND margin_key < ?`,
  tallySplitCount: `SELECT coalesce(sum(answers), 0) AS n FROM _judge_answer_tally
    WHERE model = ? AND fingerprint = ? AND margin_key >= ? AND margin_key < ? AND split = ?`,
  putRun: `INSERT INTO _judge_runs (${RUN}, seq)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
        (SELECT coalesce(max(seq), 0) + 1 FROM _judge_runs))
    ON CONFLICT (run_id) DO UPDATE SET judgment = excluded.judgment,
      spec_hash = excluded.spec_hash, git_sha = excluded.git_sha, model = excluded.model,
      rows = excluded.rows, asked = excluded.asked, cost = excluded.cost, status = excluded.status,
      started_at = excluded.started_at, finished_at = excluded.finished_at,
      cached = excluded.cached, requests = excluded.requests, command = excluded.command,
      source = excluded.source, source_hash = excluded.source_hash, node = excluded.node,
      reported_model = excluded.reported_model, states = excluded.states,
      fingerprints = excluded.fingerprints, fit = excluded.fit, routes = excluded.routes,
      sources = excluded.sources`,
  runSeq: 'SELECT seq FROM _judge_runs WHERE run_id = ?',
  putOpenRun: `INSERT INTO _judge_open_runs (run_id, pid, host, heartbeat_at, record, counts) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id) DO UPDATE SET pid = excluded.pid, host = excluded.host,
      heartbeat_at = excluded.heartbeat_at, record = excluded.record, counts = excluded.counts`,
  openRuns: 'SELECT pid, host, heartbeat_at, record, counts FROM _judge_open_runs ORDER BY run_id',
  deleteOpenRun: 'DELETE FROM _judge_open_runs WHERE run_id = ?',
  clearRunLabels: 'DELETE FROM _judge_run_labels WHERE run_id = ?',
  clearRunStates: `DELETE FROM _judge_run_states WHERE run = ${SEQ}`,
  putRunState: 'INSERT INTO _judge_run_states (run, state_hash, rows) VALUES (?, ?, ?)',
  runStatesFrom: `SELECT state_hash, rows FROM _judge_run_states
    WHERE run = ${SEQ} AND state_hash >= ? ORDER BY state_hash LIMIT ?`,
  runStateCount: `SELECT count(*) AS n FROM _judge_run_states WHERE run = ${SEQ}`,
  runStatesPage: `SELECT state_hash, rows FROM _judge_run_states
    WHERE run = ${SEQ} ORDER BY state_hash LIMIT ? OFFSET ?`,
  getRun: `SELECT ${RUN} FROM _judge_runs WHERE run_id = ?`,
  runStatesBefore: `SELECT state_hash, rows FROM _judge_run_states
    WHERE run = ${SEQ} AND state_hash < ? ORDER BY state_hash LIMIT ?`,
  sameRunStates: `SELECT
      (SELECT count(*) FROM _judge_run_states a JOIN _judge_run_states b
        ON b.run = ${SEQ} AND b.state_hash = a.state_hash AND b.rows = a.rows WHERE a.run = ${SEQ}) AS same,
      (SELECT count(*) FROM _judge_run_states WHERE run = ${SEQ}) AS a,
      (SELECT count(*) FROM _judge_run_states WHERE run = ${SEQ}) AS b`,
  putRunLabel: `INSERT INTO _judge_run_labels (run_id, question, label, count, states, squares) VALUES (?, ?, ?, ?, ?, \
?)
    ON CONFLICT (run_id, question, label) DO UPDATE SET count = count + excluded.count,
      states = states + excluded.states, squares = squares + excluded.squares`,
  listRuns: `SELECT ${RUN} FROM _judge_runs
    WHERE judgment IN (SELECT value FROM json_each(?))
    ORDER BY started_at DESC, run_id DESC LIMIT ?`,
  latestRuns: `SELECT ${RUN} FROM _judge_runs r WHERE run_id = (SELECT run_id FROM _judge_runs
      WHERE judgment = r.judgment ORDER BY started_at DESC, run_id DESC LIMIT 1)
    ORDER BY judgment`,
  runLabelCounts: `SELECT l.run_id, l.question, l.label, l.count, l.states, l.squares, r.rows, r.started_at, r.status,
      r.command, r.source, r.reported_model
    FROM _judge_runs r JOIN _judge_run_labels l ON l.run_id = r.run_id
    WHERE r.judgment = ? ORDER BY r.started_at, r.run_id, l.rowid`,
  putModelCheck: `INSERT OR REPLACE INTO _judge_model_checks (run_id, baseline, old_model, new_model,
      rows_from, states, same_rows, stopped, asked, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  clearModelPairs: 'DELETE FROM _judge_model_pairs WHERE run_id = ?',
  putModelPair: `INSERT INTO _judge_model_pairs (run_id, question, old_label, new_label, rows)
    VALUES (?, ?, ?, ?, ?)`,
  modelChecks: `SELECT c.run_id, c.baseline, c.old_model, c.new_model, c.rows_from, c.states,
      c.same_rows, c.stopped, c.asked, c.cost
    FROM _judge_runs r JOIN _judge_model_checks c ON c.run_id = r.run_id
    WHERE r.judgment = ? ORDER BY r.started_at, r.run_id`,
  modelPairs: `SELECT p.run_id, p.question, p.old_label, p.new_label, p.rows
    FROM _judge_runs r JOIN _judge_model_pairs p ON p.run_id = r.run_id
    WHERE r.judgment = ? ORDER BY p.run_id, p.question, p.old_label, p.new_label`,
  answerGroups: `SELECT judgment, question, model, fingerprint, count(*) AS answers,
      min(asked_at) AS oldest, max(asked_at) AS newest
    FROM _judge_answers GROUP BY judgment, question, model, fingerprint
    ORDER BY judgment, question, model, newest DESC, fingerprint`,
  // Without statistics the planner would walk every answer of the model; one wording's are adjacent here.
  deleteAnswers: `DELETE FROM _judge_answers INDEXED BY _judge_answers_sample
    WHERE model = ? AND fingerprint = ? AND judgment = ? AND question = ?`,
  // data_version moves with every commit of another connection, total_changes with every row this one writes.
  writeMark: 'SELECT data_version AS version, total_changes() AS changes FROM pragma_data_version',
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
  putCandidate: `INSERT INTO _judge_candidates (judgment, spec_hash, question, fingerprint, seen_at)
      VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (judgment, spec_hash, question) DO UPDATE SET fingerprint = excluded.fingerprint,
      seen_at = max(seen_at, excluded.seen_at)`,
  candidateQuestions: `SELECT judgment, spec_hash, question, fingerprint, seen_at
    FROM _judge_candidates ORDER BY judgment, spec_hash, question`,
  shadowPairs: `SELECT live_judgment, candidate_judgment, candidate_hash, state_hash, question,
      live_label, candidate_label, at
    FROM _judge_shadows WHERE live_judgment = ? ORDER BY at, rowid`,
  getPace: 'SELECT next_at FROM _judge_pace WHERE key = ?',
  putPace: `INSERT INTO _judge_pace (key, next_at) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET next_at = excluded.next_at`,
  holdPace: `INSERT INTO _judge_pace (key, next_at) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET next_at = max(next_at, excluded.next_at)`,
  getPaceCut: 'SELECT at, ceiling FROM _judge_pace_cuts WHERE key = ?',
  putPaceCut: `INSERT INTO _judge_pace_cuts (key, at, ceiling) VALUES (?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET at = excluded.at, ceiling = excluded.ceiling`,
  addSpend: `INSERT INTO _judge_spend (day, source, cost, requests) VALUES (?, ?, ?, ?)
    ON CONFLICT (day, source) DO UPDATE SET cost = cost + excluded.cost,
      requests = requests + excluded.requests`,
  spendByDay: 'SELECT day, cost, requests FROM _judge_spend WHERE source = ? ORDER BY day DESC LIMIT ?',
  heldRows: `SELECT question, state_hash, reviewer, until, card FROM _judge_leases
    WHERE judgment = ? AND until > ? ORDER BY reviewer, place`,
  holdRow: `INSERT INTO _judge_leases (judgment, question, state_hash, reviewer, until, place, card)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    ON CONFLICT (judgment, question, state_hash) DO UPDATE SET reviewer = excluded.reviewer,
      until = excluded.until, place = excluded.place, card = excluded.card
    WHERE _judge_leases.until <= ?8 OR _judge_leases.reviewer = excluded.reviewer`,
  dropExpiredLeases: 'DELETE FROM _judge_leases WHERE until <= ?',
  releaseRow: 'DELETE FROM _judge_leases WHERE judgment = ? AND question = ? AND state_hash = ?',
  releaseReviewer: 'DELETE FROM _judge_leases WHERE judgment = ? AND reviewer = ?',
} as const

const ANSWER_STATEMENTS: ReadonlySet<string> = new Set([
  'getAnswers',
  'getAnswer',
  'answeredFingerprints',
  'answersForStates',
  'answerLabels',
  'sampleAnswers',
  'sampleBand',
  'sampleSplitBand',
  'tallyCells',
])

/** Every statement a store runs, prepared once when the store opens. */
export type Statements = { readonly [K in keyof typeof SQL]: StatementSync }

/** Prepares every statement of the store on an open, migrated database. */
export function prepareStatements(db: DatabaseSync): Statements {
  const prepared = prepareEach(db, SQL)
  for (const name of ANSWER_STATEMENTS) prepared[name as keyof Statements].setReturnArrays(true)
  return prepared
}

/** Prepares each statement of a table of SQL by name (a store's part keeps its own), on an open, migrated database. */
export function prepareEach<T extends Readonly<Record<string, string>>>(
  db: DatabaseSync,
  sql: T,
): { readonly [K in keyof T]: StatementSync } {
  return Object.fromEntries(Object.entries(sql).map(([name, text]) => [name, db.prepare(text)])) as {
    readonly [K in keyof T]: StatementSync
  }
}

/** A limit as SQLite's LIMIT: 0 or less (or NaN) is none, Infinity is all (SQLite's -1). */
export function sqlLimit(limit: number): number {
  if (limit === Infinity) return -1
  return Number.isFinite(limit) ? Math.max(0, Math.trunc(limit)) : 0
}
