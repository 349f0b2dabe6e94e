/**
 * One bulk submission to a provider's batch API, as the store keeps it from before its upload: its
 * tag (judge's id, also in the provider batch's metadata), the judgment and run it is for, the
 * provider's file and batch ids once known, its state and counts, when, and its estimate.
 */
export interface BatchRecord {
  /** judge's id of the batch (a UUID), given before anything is uploaded. */
  readonly tag: string
  readonly judgment: string
  /** The run that collects it is recorded under this id. */
  readonly runId: string
  /** The model its questions are asked of, as answers are stored under. */
  readonly model: string
  /** The provider's id of the uploaded file, or null before the upload. */
  readonly inputFileId: string | null
  /** The provider's id of the batch, or null before it is created. */
  readonly batchId: string | null
  /**
   * `recorded` (nothing uploaded), `uploaded` (no batch yet), then the provider's state (ports/engine.ts,
   * BatchState); `dropped` when nothing of it was left to submit.
   */
  readonly state: string
  /** The provider's request counts, as last seen. */
  readonly total: number
  readonly completed: number
  readonly failed: number
  /** Estimated USD at the batch price. */
  readonly estimate: number
  /** UTC timestamps without zone offset, as run records write them. */
  readonly createdAt: string
  readonly updatedAt: string
  /** When its answers were stored; null while it is pending. */
  readonly landedAt: string | null
}

/** One item of a batch: which questions (fingerprints) of which state it asks. */
export interface BatchEntry {
  /** The item's key in the provider's files (ports/engine.ts, BatchItem). */
  readonly key: string
  readonly stateHash: string
  readonly fingerprints: readonly string[]
}

/** What changes of a batch as it goes: its ids, state, counts and landing. */
export type BatchChange = Partial<
  Pick<BatchRecord, 'inputFileId' | 'batchId' | 'state' | 'total' | 'completed' | 'failed' | 'landedAt'>
> & { readonly updatedAt: string }

/**
 * The bulk submissions of the store (docs/engine.md, The bulk lane): recorded before anything is
 * uploaded, so that a process killed at any step leaves what it submitted for the next run to find.
 */
export interface BatchStore {
  /** Records a batch with its items in one transaction; a tag recorded before is left as it was. */
  recordBatch(batch: BatchRecord, entries: readonly BatchEntry[]): void
  /** Changes a recorded batch; false when no batch has this tag. */
  updateBatch(tag: string, change: BatchChange): boolean
  /** The batches of the given judgments, newest first (every judgment's when none is given). */
  listBatches(judgments?: readonly string[]): BatchRecord[]
  /** The items of one batch, in key order. */
  batchEntries(tag: string): BatchEntry[]
}
