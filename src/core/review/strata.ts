import type { MarginBand } from '../../ports/answer-store.ts'

/**
 * The strata of a question's answers, in the order of review priority: `split`, a jury's answers some juror
 * dissented from; `unsure`, the others whose margin is below the spec's `unsure_below`; `confident`, the rest. The
 * queue samples each at random on its own, so the estimate can weigh each by its share of the answers
 * (docs/review.md). One model's answers have no dissent: their `split` stratum is empty.
 */
export const STRATA = ['split', 'unsure', 'confident'] as const

/** A stratum of a question's answers. */
export type Stratum = (typeof STRATA)[number]

/** How a stratum reads in plain words, on the pages and in the command's text. */
const STRATUM_TEXT: Readonly<Record<Stratum, string>> = {
  split: 'jurors disagree',
  unsure: 'unsure',
  confident: 'confident',
}

/** A stratum's name as a table lists it: `split` says what it is, "split (jurors disagree)". */
export function stratumName(stratum: Stratum): string {
  return stratum === 'split' ? `split (${STRATUM_TEXT.split})` : stratum
}

/** A count of a stratum's rows in words: "3 unsure", "2 where jurors disagree". */
export function stratumCount(stratum: Stratum, n: number): string {
  return stratum === 'split' ? `${n} where ${STRATUM_TEXT.split}` : `${n} ${STRATUM_TEXT[stratum]}`
}

/** The strata a text lists: every one but an empty `split` stratum, which one model's answers always leave. */
export function listedStrata<T extends { readonly stratum: Stratum; readonly size: number }>(
  strata: readonly T[],
): T[] {
  return strata.filter((s) => s.stratum !== 'split' || s.size > 0)
}

/** Whether a string names a stratum. */
export function isStratum(value: unknown): value is Stratum {
  return (STRATA as readonly unknown[]).includes(value)
}

/**
 * What an answer's stratum is read from: its margin, and whether jurors disagreed on it, as a store's cell says it
 * (`split`) or a stored answer (`dissent`, the jurors that named another label; null for one model's answer).
 */
export interface StratumReading {
  readonly margin: number
  readonly split?: boolean
  readonly dissent?: number | null
}

/** Whether an answer is a jury's that some juror dissented from: the `split` stratum. */
export function isSplit(answer: StratumReading): boolean {
  return answer.split === true || (answer.dissent ?? 0) > 0
}

/** The stratum of an answer: `split` when jurors disagreed on it, else `unsure` or `confident` by its margin. */
export function stratumOf(answer: StratumReading, unsureBelow: number): Stratum {
  if (isSplit(answer)) return 'split'
  return answer.margin < unsureBelow ? 'unsure' : 'confident'
}

/** The answers of a stratum, as the store reads them: by dissent, then by margin. */
export function bandOf(stratum: Stratum, unsureBelow: number): MarginBand {
  if (stratum === 'split') return { from: -Infinity, below: Infinity, split: true }
  return stratum === 'unsure'
    ? { from: -Infinity, below: unsureBelow, split: false }
    : { from: unsureBelow, below: Infinity, split: false }
}

/**
 * One thing per stratum as a caller read it: the `split` stratum's may be absent, where none was read (one model's
 * answers have none), and then counts as empty.
 */
export type StrataRead<T> = Readonly<Record<Exclude<Stratum, 'split'>, T>> & { readonly split?: T }
