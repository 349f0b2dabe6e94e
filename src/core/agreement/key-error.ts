import { wilsonInterval } from '../stats/wilson.ts'
import type { AnswerKey, Verdicts } from '../review/verdicts.ts'

/** The share of the answer key's labels found wrong by reviewers, over the key rows they reviewed. */
export interface KeyError {
  readonly point: number
  /** 95% Wilson interval of the share. */
  readonly interval: readonly [number, number]
  /** Key rows with a label for the question and a standing verdict that saved a label. */
  readonly rows: number
  /** Those whose verdict does not save the key's label. */
  readonly wrong: number
}

/**
 * The answer key's error on a question: over the rows where the key gives a label and a standing
 * verdict saves one, the share whose verdict does not include the key's label (`key_right` and
 * `both_ok` keep it). Null when there is no such row. Rows reach a reviewer mostly as
 * disagreements with the model, so this is the error of the key rows checked, not of the key.
 */
export function keyError(judgment: string, question: string, key: AnswerKey, verdicts: Verdicts): KeyError | null {
  let rows = 0
  let wrong = 0
  for (const v of verdicts.values()) {
    if (v.judgment !== judgment || v.question !== question || v.labels.length === 0) continue
    const keyLabel = key.get(v.state_hash)?.labels[question]
    if (keyLabel === undefined) continue
    rows += 1
    if (!v.labels.includes(keyLabel)) wrong += 1
  }
  if (rows === 0) return null
  return { point: wrong / rows, interval: wilsonInterval(wrong, rows)!, rows, wrong }
}
