import { timestamp } from '../../core/judge/deps.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import type { Project } from '../../core/types.ts'
import type { BatchRecord } from '../../ports/batch-store.ts'
import { UsageError } from '../../errors.ts'
import type { App } from '../app.ts'
import { statusChange } from './submit.ts'

/**
 * The bulk submissions of the judgments selected (`judgment`, or all the path selects), newest
 * first: reading creates no store.
 */
export function batchesOf(app: App, project: Project, judgment: string | null | undefined): BatchRecord[] {
  const names = selectJudgments(project, judgment, 'all').map((s) => s.name)
  return app.existingStore(project)?.listBatches(names) ?? []
}

/**
 * Asks the provider to cancel a pending batch of the project, by its provider id or its tag, and
 * records its state; the answers it gave before it ended land at the next `judge run --batch`.
 */
export async function cancelBatch(app: App, project: Project, id: string, signal?: AbortSignal): Promise<BatchRecord> {
  const deps = app.depsFor(project)
  const batch = deps.store.listBatches().find((b) => b.batchId === id || b.tag === id)
  if (!batch) throw new UsageError(`no batch ${id} in the store of ${project.dir}`)
  if (batch.landedAt !== null || batch.batchId === null)
    throw new UsageError(`batch ${id} is not pending at the provider (${batch.state})`)
  const lane = deps.engine?.batch
  if (!lane) throw new UsageError('the engine has no batch API to cancel batches with')
  const status = await lane.cancel(batch.batchId, signal)
  const change = { ...statusChange(status), updatedAt: timestamp(app.now()) }
  deps.store.updateBatch(batch.tag, change)
  return { ...batch, ...change }
}
