import { UsageError } from '../../errors.ts'
import { hasJury } from '../jury/jurors.ts'
import type { Spec } from '../types.ts'

/**
 * Refuses the bulk lane (`--batch`) for judgments that name a jury (`models:`), before anything is planned or
 * submitted: a batch carries one model's requests to one engine, while a jury's answers come from each juror asked on
 * its own engine. `specs` are the judgments the command would judge, dependencies included.
 */
export function refuseJuryBatch(specs: readonly Spec[], command: 'run' | 'plan'): void {
  const jury = specs.find(hasJury)
  if (!jury) return
  throw new UsageError(
    `judgment ${jury.name} names a jury (models:), which the batch API cannot ask: ` +
      `each juror is asked on its own engine; use \`judge ${command}\` without --batch`,
  )
}
