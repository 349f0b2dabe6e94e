import type { LabelCount, ModelCheck, RunRecord, RunState } from '../core/types.ts'

/** A label count of one run, with the run's place in time and provenance, for drift. */
export interface RunLabelCount extends LabelCount {
  readonly states: number | null
  readonly squares: number | null
  readonly rows: number
  readonly started_at: string
  readonly status: string
  readonly command: string
  readonly source: string
  readonly reported_model: string
}

/**
 * A run still going, as its process last wrote it: its record so far (its spend, answers and rows
 * up to then), its label counts so far, and the process that runs it. Kept apart from the runs
 * recorded, so that no listing shows it until it ends (docs/runs.md).
 */
export interface OpenRun {
  readonly run: RunRecord
  readonly counts: readonly LabelCount[]
  /** The process running it, and the machine that process runs on (os.hostname()). */
  readonly pid: number
  readonly host: string
  /** When the process last wrote it, as `started_at` is written (UTC, without zone offset). */
  readonly heartbeat_at: string
}

/**
 * The runs the commands recorded: each run's record, label counts and the states it judged (its
 * row list), and the model checks of runs whose engine reported a new model. Drift, the runs
 * listing and page, `judge plan`, `judge runs --prune` and the model checks read them.
 */
export interface RunStore {
  /**
   * Records a run with its label counts and the states it judged, in one transaction; again
   * replaces them. The open run of the same id, if any, ends in the same transaction.
   */
  recordRun(run: RunRecord, counts: readonly LabelCount[], states?: Iterable<RunState>): void
  /** Keeps a run still going as it stands now, replacing what was kept of it before. */
  putOpenRun(open: OpenRun): void
  /** Every run still going (or abandoned, its process gone), oldest first. */
  openRuns(): OpenRun[]
  /**
   * Ends an abandoned open run as `run`, with its label counts, in one transaction. False, and
   * nothing written, when it is no longer open (its process, or another one, ended it first).
   */
  closeOpenRun(run: RunRecord, counts: readonly LabelCount[]): boolean
  /** Runs of the given judgments, newest first. */
  listRuns(judgments: readonly string[], limit: number): RunRecord[]
  /** The newest run of every judgment the store has runs of. */
  latestRuns(): RunRecord[]
  /** Label counts of every run of one judgment, oldest run first. */
  runLabelCounts(judgment: string): RunLabelCount[]
  /** One run by its id, or null. */
  getRun(runId: string): RunRecord | null

  /**
   * Up to `limit` states of a run in hash order from the first at or after `from`, wrapping round: a random `from`
   * samples.
   */
  runStates(runId: string, from: string, limit: number): RunState[]
  /** Up to `limit` states of a run in hash order, skipping the first `offset`: a page of its rows. */
  runStatesPage(runId: string, offset: number, limit: number): RunState[]
  /** How many states of a run the store holds: its `states`, or 0 once its row list is pruned. */
  runStateCount(runId: string): number
  /** Deletes the row lists (states) of the given runs in one transaction, nothing else; returns the states deleted. */
  deleteRunStates(runIds: readonly string[]): number
  /** Whether two runs judged exactly the same states, each on as many rows. */
  sameRunStates(a: string, b: string): boolean

  /** Records the model check of a run, replacing any earlier one of that run. */
  recordModelCheck(check: ModelCheck): void
  /** The model checks of one judgment's runs, oldest run first. */
  modelChecks(judgment: string): ModelCheck[]
}
