import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Question } from '../types.ts'
import type { StratumRows } from './queue.ts'
import { STRATA, stratumOf, type StrataRead, type Stratum } from './strata.ts'
import { sampleStratum, type KnownRow, type SampledRow, type StratumSample, type Truth } from './stratum-sample.ts'
import type { AnswerKey, VerdictRecord, Verdicts } from './verdicts.ts'

/** The random sample of each stratum of one question. */
export interface QuestionSample {
  readonly question: Question
  readonly strata: Readonly<Record<Stratum, StratumSample>>
}

/** What the known rows of a question are read from. */
export interface KnownInput {
  readonly judgment: string
  readonly question: Question
  readonly key: AnswerKey
  /** Whether the key's rows were drawn at random from the rows judged (`key_sample: random`). */
  readonly randomKey: boolean
  readonly verdicts: Verdicts
  /** The current answers of the rows with a verdict or in the key, by state hash. */
  readonly answers: ReadonlyMap<string, StoredAnswer>
}

/** The state hashes whose current answers knownRows needs: the question's reviewed rows, and a random key's. */
export function knownHashes(input: Omit<KnownInput, 'answers'>): string[] {
  return [...knownVerdicts(input).keys()]
}

/**
 * The verdict of each of knownHashes' rows, by state hash (none for a key row without one). Verdicts are keyed by
 * their own judgment, question and state hash (retraction.ts), so the pass that finds a row's verdict keeps it.
 */
function knownVerdicts(input: Omit<KnownInput, 'answers'>): Map<string, VerdictRecord | undefined> {
  const found = new Map<string, VerdictRecord | undefined>()
  for (const v of input.verdicts.values())
    if (v.judgment === input.judgment && v.question === input.question.name) found.set(v.state_hash, v)
  if (input.randomKey)
    for (const row of input.key.values())
      if (row.labels[input.question.name] !== undefined && !found.has(row.stateHash))
        found.set(row.stateHash, undefined)
  return found
}

/**
 * The rows of a question whose true label is known and that have a current answer: every row with
 * a verdict, and the rows of a random key (its label, overridden by a verdict). A chosen key's rows
 * are known only through verdicts: the rows someone chose say nothing of the rest.
 */
export function knownRows(input: KnownInput): Map<string, KnownRow> {
  const known = new Map<string, KnownRow>()
  for (const [hash, verdict] of knownVerdicts(input)) {
    const answer = input.answers.get(hash)
    const keyLabel = input.key.get(hash)?.labels[input.question.name]
    const truth = truthOf(verdict, keyLabel)
    if (answer && truth) known.set(hash, { answer, truth, randomKey: input.randomKey && keyLabel !== undefined })
  }
  return known
}

function truthOf(verdict: VerdictRecord | undefined, keyLabel: string | undefined): Truth | null {
  if (verdict?.verdict === 'needs_context' || verdict?.verdict === 'ambiguous') return { excluded: verdict.verdict }
  if (verdict) return verdict.labels.length > 0 ? { labels: verdict.labels } : null
  return keyLabel === undefined ? null : { labels: [keyLabel] }
}

/** What questionSample reads: each stratum's rank order and the question's known rows. */
export interface QuestionSampleInput {
  readonly question: Question
  readonly unsureBelow: number
  /** Each stratum's size and rank order; an absent `split` stratum is empty. */
  readonly strata: StrataRead<StratumRows>
  readonly known: ReadonlyMap<string, KnownRow>
}

const NO_ROWS: StratumRows = { size: 0, rows: [] }

/** The sample of each stratum of a question; known rows go to the stratum of their current answer. */
export function questionSample(input: QuestionSampleInput): QuestionSample {
  const byStratum = new Map<Stratum, Map<string, KnownRow>>(STRATA.map((s) => [s, new Map()]))
  for (const [hash, row] of input.known) byStratum.get(stratumOf(row.answer, input.unsureBelow))!.set(hash, row)
  const strata = Object.fromEntries(
    STRATA.map((stratum) => {
      const read = input.strata[stratum] ?? NO_ROWS
      return [
        stratum,
        sampleStratum({
          stratum,
          question: input.question,
          size: read.size,
          ranked: read.rows,
          known: byStratum.get(stratum)!,
        }),
      ]
    }),
  ) as Record<Stratum, StratumSample>
  return { question: input.question, strata }
}

/** How many rows of each stratum's rank order questionSample needs read: past every known row, and MIN_COUNTED more. */
export function rowsToRead(
  known: ReadonlyMap<string, KnownRow>,
  unsureBelow: number,
  minimum: number,
): Record<Stratum, number> {
  const counts = Object.fromEntries(STRATA.map((s) => [s, minimum + 1])) as Record<Stratum, number>
  for (const row of known.values()) counts[stratumOf(row.answer, unsureBelow)] += 1
  return counts
}

/** A labelled sampled row with its design weight: the answers of its stratum it stands for. */
export interface WeightedRow {
  readonly row: SampledRow
  readonly weight: number
}

/** Every labelled row of a sample design, weighted by its stratum's answers over its counted rows. */
export function weightedRows(sampleDesign: QuestionSample): WeightedRow[] {
  return STRATA.flatMap((s) => {
    const { size, rows } = sampleDesign.strata[s]
    return rows.map((row) => ({ row, weight: size / rows.length }))
  })
}
