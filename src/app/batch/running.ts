import { runningRuns, type RunningRun } from '../../core/batch/running.ts'
import type { Project } from '../../core/types.ts'
import type { App } from '../app.ts'
import { batchesOf } from './batches.ts'

/**
 * The runs of the judgments selected (`judgment`, or all the path selects) whose batches are pending
 * at the provider, newest first, with their counts as last seen: reading creates no store.
 */
export function runningOf(app: App, project: Project, judgment: string | null | undefined): RunningRun[] {
  return runningRuns(batchesOf(app, project, judgment))
}
