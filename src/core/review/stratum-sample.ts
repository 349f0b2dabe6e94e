import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Question } from '../types.ts'
import type { Stratum } from './strata.ts'

/** What is known of a row's true label: its true labels, or that a reviewer could not give one. */
export type Truth = { readonly labels: readonly string[] } | { readonly excluded: 'needs_context' | 'ambiguous' }

/** A row of a question whose true label is known, with its current answer. */
export interface KnownRow {
  readonly answer: StoredAnswer
  readonly truth: Truth
  /** Whether the row is in an answer key the spec declares a random sample (`key_sample: random`). */
  readonly randomKey: boolean
}

/** A labelled row of a stratum's sample. */
export interface SampledRow {
  readonly stateHash: string
  readonly stratum: Stratum
  /** The model's current label, its probability and margin. */
  readonly label: string
  readonly p: number
  readonly margin: number
  readonly truth: readonly string[]
  readonly correct: boolean
}

/** The random sample of one stratum and what it found. */
export interface StratumSample {
  readonly stratum: Stratum
  /** Answers in the stratum. */
  readonly size: number
  /** Rows in the sample: the reviewed prefix of the rank order, plus a random key's rows. */
  readonly sampled: number
  /** Sampled rows with a true label, in rank order then key order. */
  readonly rows: readonly SampledRow[]
  readonly needs_context: number
  readonly ambiguous: number
  /** Rows of the stratum with a verdict that are not in the sample (reviewed past a gap in the rank order). */
  readonly outside: number
  /** The first row of the rank order without a verdict: the next one to review, null when none is left. */
  readonly next: string | null
  /** Reviews it takes before the stratum can be estimated; 0 when it can. */
  readonly needed: number
}

/** Labelled rows a stratum needs in its sample before it is estimated, unless its whole population is. */
export const MIN_COUNTED = 1

/** What sampleStratum reads: one stratum's rank order and the known rows of the question. */
export interface StratumInput {
  readonly stratum: Stratum
  readonly question: Question
  readonly size: number
  /** The stratum's answers in rank order from the first, at least one past its last known row. */
  readonly ranked: readonly StoredAnswer[]
  /** The known rows of this stratum, by state hash. */
  readonly known: ReadonlyMap<string, KnownRow>
}

/**
 * The sample of a stratum: the longest prefix of its rank order in which every row is known, plus
 * the rows of a random key. Which rows the prefix holds depends on the rank alone, never on what a
 * reviewer skipped, filtered or reviewed out of order, so it is a simple random sample of the
 * stratum; a skipped row holds the sample back until it is reviewed (docs/review.md).
 */
export function sampleStratum(input: StratumInput): StratumSample {
  const { ranked, known } = input
  let prefix = 0
  while (prefix < ranked.length && known.has(ranked[prefix].stateHash)) prefix += 1
  const inPrefix = new Set(ranked.slice(0, prefix).map((a) => a.stateHash))
  const members = [
    ...ranked.slice(0, prefix).map((a) => known.get(a.stateHash)!),
    ...[...known.values()].filter((k) => k.randomKey && !inPrefix.has(k.answer.stateHash)),
  ]
  const rows: SampledRow[] = []
  const tally = { needs_context: 0, ambiguous: 0 }
  for (const member of members) {
    if ('excluded' in member.truth) tally[member.truth.excluded] += 1
    else rows.push(sampledRow(input, member.answer, member.truth.labels))
  }
  const next = prefix < input.size ? (ranked[prefix]?.stateHash ?? null) : null
  return {
    stratum: input.stratum,
    size: input.size,
    sampled: members.length,
    rows,
    ...tally,
    outside: known.size - members.length,
    next,
    needed: neededReviews(input, prefix, rows.length),
  }
}

function sampledRow(input: StratumInput, answer: StoredAnswer, truth: readonly string[]): SampledRow {
  const { label, p, margin } = answer
  return {
    stateHash: answer.stateHash,
    stratum: input.stratum,
    label,
    p,
    margin,
    truth,
    correct: truth.includes(label),
  }
}

/** Reviews of the rows after the prefix it takes to reach MIN_COUNTED, counting each as labelled. */
function neededReviews(input: StratumInput, prefix: number, counted: number): number {
  if (counted >= MIN_COUNTED || prefix >= input.size) return 0
  let have = counted
  let needed = 0
  for (let i = prefix; i < input.ranked.length && have < MIN_COUNTED; i++) {
    const row = input.known.get(input.ranked[i].stateHash)
    if (!row) needed += 1
    if (!row || !('excluded' in row.truth)) have += 1
  }
  const unread = Math.max(0, input.size - input.ranked.length)
  return needed + Math.min(unread, MIN_COUNTED - have > 0 ? MIN_COUNTED - have : 0)
}
