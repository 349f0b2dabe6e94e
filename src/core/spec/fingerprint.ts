import { shortHash } from '../hash.ts'
import type { QuestionType } from '../types.ts'

/**
 * The fingerprint of a question: a hash of exactly what the engine sees of it (type, ask, labels
 * and their descriptions). Editing anything else of a spec leaves it, and so the cache, intact.
 */
export function questionFingerprint(
  type: QuestionType,
  ask: string,
  labels: readonly string[],
  descriptions: readonly (string | null)[],
): string {
  return shortHash(JSON.stringify({ type, ask, labels, descriptions }))
}
