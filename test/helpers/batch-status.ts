import type { BatchStatus } from '../../src/ports/engine.ts'

/** A batch's status as the port gives it: no counts, files, tag or error unless `over` sets them. */
export function batchStatus(over: Partial<BatchStatus> & Pick<BatchStatus, 'id' | 'state'>): BatchStatus {
  return {
    total: 0,
    completed: 0,
    failed: 0,
    inputFileId: '',
    outputFileId: null,
    errorFileId: null,
    tag: null,
    error: null,
    ...over,
  }
}
