import { modelFor } from '../core/judge/deps.ts'
import { selectJudgments } from '../core/judge/select.ts'
import { checkVerdict, type VerdictRequest } from '../core/review/verdict-check.ts'
import type { VerdictRecord } from '../core/review/verdicts.ts'
import type { Project, Spec } from '../core/types.ts'
import { JudgeError } from '../errors.ts'
import type { App } from './app.ts'
import { queueData, type StoredQueue } from './review-data.ts'

/** The queue a reviewer works on: one judgment of a project, with its spot-check size. */
export interface QueueTarget {
  readonly project: Project
  readonly spec: Spec
  /** Spot-check rows per question. */
  readonly audit: number
}

/** The queue target of a project: `node`, or its only judgment. */
export function queueTarget(project: Project, node: string | null | undefined, audit: number): QueueTarget {
  const [spec] = selectJudgments(project, node, 'one')
  return { project, spec, audit }
}

/** A judgment's review queue, from its store, answer key and reviews file; the engine is never asked. */
export async function reviewQueue(app: App, target: QueueTarget): Promise<StoredQueue> {
  const { spec, project } = target
  const [key, verdicts] = await Promise.all([app.files.key(spec), app.files.verdicts(spec)])
  const store = app.existingStore(project)
  // No store yet means no answers yet: nothing to offer, and reading must not create one.
  if (store === null) return { spec, offered: [], cards: [], moreUnsure: false }
  return queueData({ store, model: modelFor(spec, app.depsFor(project)), spec, key, verdicts }, { audit: target.audit })
}

/**
 * Records one verdict: checks it against the current queue (409 for a row not offered as that
 * kind) and appends it to the reviews file, both under one lock per reviews file, so that two
 * verdicts on one row cannot both be accepted by this process.
 */
export function recordVerdict(app: App, target: QueueTarget, request: VerdictRequest): Promise<VerdictRecord> {
  const { spec } = target
  return app.locks.run(spec.reviews, async () => {
    const record = checkVerdict(await reviewQueue(app, target), request)
    try {
      await app.files.appendVerdict(spec, record)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      const message = `cannot write the reviews file ${spec.reviews} of ${spec.name}: ${code}; nothing was saved`
      throw new JudgeError(message, { cause: error, context: { judgment: spec.name, file: spec.reviews } })
    }
    return record
  })
}
