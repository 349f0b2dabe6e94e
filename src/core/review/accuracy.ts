import { verdictKey, type AnswerKey, type VerdictRecord, type Verdicts } from './verdicts.ts'
import type { Question, Spec } from '../types.ts'
import { wilsonInterval } from '../stats/wilson.ts'

/** Counts of true label (rows) against model label (columns), both in `labels` order. */
export interface Confusion {
  readonly labels: readonly string[]
  readonly counts: readonly (readonly number[])[]
}

/** The accuracy of one question against the key and the verdicts (docs/review.md, The estimate). */
export interface QuestionScore {
  /** Rows with a known true label and a current answer. */
  readonly counted: number
  /** Counted rows whose model label is a true label. */
  readonly correct: number
  /** correct / counted, or null when nothing is counted. */
  readonly accuracy: number | null
  /** 95% Wilson interval of the accuracy, or null when nothing is counted. */
  readonly interval: readonly [number, number] | null
  /** Rows with a verdict. */
  readonly reviewed: number
  /** Rows whose latest verdict is needs_context: the context gap. */
  readonly needs_context: number
  readonly ambiguous: number
  /** Rows whose current answer disagrees with the key and that have no verdict yet. */
  readonly pending: number
  readonly confusion: Confusion
}

/** What one question is scored from; reads nothing. */
export interface ScoreInput {
  readonly judgment: string
  readonly question: Question
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  /** The model's current label by state hash, for the rows the store answers. */
  readonly current: ReadonlyMap<string, string>
}

/** The state hashes a question is scored on: the key's rows with a label for it, then reviewed rows. */
export function scoredRows(judgment: string, question: string, key: AnswerKey, verdicts: Verdicts): string[] {
  const rows = new Set<string>()
  for (const row of key.values()) if (row.labels[question] !== undefined) rows.add(row.stateHash)
  for (const v of verdicts.values()) if (v.judgment === judgment && v.question === question) rows.add(v.state_hash)
  return [...rows]
}

/**
 * Scores one question. A row's true labels are the key's, overridden by its latest verdict: the
 * labels the verdict saved (model_right and both_ok the model's, key_right the key's, confirmed the
 * label under check, labeled the given one); needs_context and ambiguous take the row out. A row is
 * correct when the model's current label is among its true labels, so both_ok counts it right.
 */
export function scoreQuestion(input: ScoreInput): QuestionScore {
  const { judgment, question, key, verdicts, current } = input
  const tally = { counted: 0, correct: 0, reviewed: 0, needs_context: 0, ambiguous: 0, pending: 0 }
  const confusion = createConfusion(question.labels)
  for (const hash of scoredRows(judgment, question.name, key, verdicts)) {
    const verdict = verdicts.get(verdictKey(judgment, question.name, hash))
    if (verdict) tally.reviewed += 1
    if (verdict?.verdict === 'needs_context' || verdict?.verdict === 'ambiguous') {
      tally[verdict.verdict] += 1
      continue
    }
    const model = current.get(hash)
    const truth = trueLabels(verdict, key.get(hash)?.labels[question.name])
    if (model === undefined || truth.length === 0) continue
    const correct = truth.includes(model)
    if (!verdict && !correct) tally.pending += 1
    tally.counted += 1
    if (correct) tally.correct += 1
    confusion.add(correct ? model : truth[0], model)
  }
  const accuracy = tally.counted === 0 ? null : tally.correct / tally.counted
  return { ...tally, accuracy, interval: wilsonInterval(tally.correct, tally.counted), confusion: confusion.table() }
}

/** Scores every question of a judgment; `current` holds each question's current labels by state hash. */
export function scoreJudgment(
  spec: Spec,
  key: AnswerKey,
  verdicts: Verdicts,
  current: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Record<string, QuestionScore> {
  const scores: Record<string, QuestionScore> = {}
  for (const question of spec.questions) {
    scores[question.name] = scoreQuestion({
      judgment: spec.name,
      question,
      key,
      verdicts,
      current: current.get(question.name) ?? new Map(),
    })
  }
  return scores
}

function trueLabels(verdict: VerdictRecord | undefined, keyLabel: string | undefined): readonly string[] {
  if (verdict) return verdict.labels
  return keyLabel === undefined ? [] : [keyLabel]
}

/** A confusion table that grows a row and column for a label the question no longer has. */
function createConfusion(questionLabels: readonly string[]) {
  const labels = [...questionLabels]
  const counts = new Map<string, number>()
  return {
    add(truth: string, model: string): void {
      for (const label of [truth, model]) if (!labels.includes(label)) labels.push(label)
      counts.set(`${truth}\0${model}`, (counts.get(`${truth}\0${model}`) ?? 0) + 1)
    },
    table(): Confusion {
      return { labels, counts: labels.map((t) => labels.map((m) => counts.get(`${t}\0${m}`) ?? 0)) }
    },
  }
}
