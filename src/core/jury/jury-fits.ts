import type { AnswerStore } from '../../ports/answer-store.ts'
import type { JuryStore } from '../../ports/jury-store.ts'
import type { Question } from '../types.ts'
import { fitJury, type Anchor, type JuryFit, type Pattern, type Said } from './dawid-skene.ts'

/** People's labels of a judgment's reviewed rows: by question name, then state hash, the label they gave. */
export type ReviewedLabels = ReadonlyMap<string, ReadonlyMap<string, string>>

/** What a jury's fit reads of the store: the jurors' label patterns and their labels on the reviewed rows. */
export type JuryFitStore = JuryStore & Pick<AnswerStore, 'answerLabels' | 'countAnswers'>

/** One question of one jury, to fit. */
export interface FitRequest {
  /** The store the jurors' answers are in: the cache is kept per store. */
  readonly store: JuryFitStore
  /** The jury's model id (juryModelId). */
  readonly jury: string
  /** Each juror's model id, in the spec's order. */
  readonly jurors: readonly string[]
  readonly question: Question
  /** People's label per reviewed state of this question. */
  readonly reviewed: ReadonlyMap<string, string>
}

/**
 * A fit is made again when the rows its jurors answered grew by more than this share since it was made: a new fit
 * then moves the answers little, and judging does not read every answer per row.
 */
export const REFIT_GROWTH = 0.1

interface Held {
  readonly fit: JuryFit
  /** The reviewed rows it was anchored on, as text: any change of a verdict makes it stale. */
  readonly reviewed: string
  /** The patterns it was fitted on: the one reading of every answer, kept while the answers grow by a tenth. */
  readonly patterns: readonly Pattern[]
  /** The jurors' answers to the question when the patterns were counted (the store's counts). */
  readonly answers: number
}

// Per store, per jury and question fingerprint: the fit last made.
const held = new WeakMap<JuryFitStore, Map<string, Held>>()

/**
 * The fit of one question's jury (core/jury/dawid-skene.ts) from the store's patterns of its jurors' labels and the
 * reviewed rows, kept per store, jury and question. The patterns (one read of every juror's answers) are counted again
 * only when the jurors' answers to it grew by more than REFIT_GROWTH since (or fell: answers were deleted); a change of
 * the reviewed rows fits again on the patterns already counted (the EM walks patterns, not rows), so that a verdict
 * never costs a read of every answer.
 */
export function juryFit(request: FitRequest): JuryFit {
  const { store, jury, jurors, question, reviewed } = request
  let fits = held.get(store)
  if (!fits) held.set(store, (fits = new Map()))
  const id = `${jury}\0${question.fingerprint}`
  const answers = jurors.reduce((sum, model) => sum + store.countAnswers(model, question.fingerprint), 0)
  const anchoredOn = signatureOf(reviewed)
  const last = fits.get(id)
  const current = last && answers >= last.answers && answers <= last.answers * (1 + REFIT_GROWTH)
  if (current && last.reviewed === anchoredOn) return last.fit
  const patterns = current
    ? last.patterns
    : store
        .labelPatterns(jurors, question.fingerprint)
        .map((p) => ({ said: saidOf(question, p.labels), count: p.count }))
  const fit = fitJury({
    labels: question.labels,
    jurors: jurors.length,
    patterns,
    anchors: anchorsOf(store, jurors, question, reviewed),
  })
  fits.set(id, { fit, reviewed: anchoredOn, patterns, answers: current ? last.answers : answers })
  return fit
}

// The reviewed rows of a question are read once per judging operation: their text is made once per reading.
const signatures = new WeakMap<ReadonlyMap<string, string>, string>()

function signatureOf(reviewed: ReadonlyMap<string, string>): string {
  let text = signatures.get(reviewed)
  if (text === undefined) signatures.set(reviewed, (text = JSON.stringify([...reviewed])))
  return text
}

/** Jurors' labels as label indices of the question; a label it does not have (or none) is null. */
export function saidOf(question: Pick<Question, 'labels'>, labels: readonly (string | null)[]): Said {
  return labels.map((label) => {
    const index = label === null ? -1 : question.labels.indexOf(label)
    return index < 0 ? null : index
  })
}

/** The reviewed rows some juror answered, with each juror's label on them and people's label among the question's. */
function anchorsOf(
  store: JuryFitStore,
  jurors: readonly string[],
  question: Question,
  reviewed: ReadonlyMap<string, string>,
): Anchor[] {
  const hashes = [...reviewed.keys()]
  if (hashes.length === 0) return []
  const labels = jurors.map((model) =>
    store.answerLabels(model, [question.fingerprint], hashes).get(question.fingerprint),
  )
  const anchors: Anchor[] = []
  for (const [hash, label] of reviewed) {
    const truth = question.labels.indexOf(label)
    const said = saidOf(
      question,
      labels.map((byState) => byState?.get(hash) ?? null),
    )
    if (truth >= 0 && said.some((s) => s !== null)) anchors.push({ said, truth })
  }
  return anchors
}

/** A verdict as the reviews file keeps it, as far as a jury's fit reads it. */
export interface ReviewedVerdict {
  readonly judgment: string
  readonly question: string
  readonly state_hash: string
  /** The labels the verdict saves: a row is an anchor when it saves exactly one. */
  readonly labels: readonly string[]
}

/**
 * People's labels of one judgment's reviewed rows from its standing verdicts: a verdict saving one label gives it;
 * one saving none (needs context, ambiguous) or two (both right) tells no single truth and is left out.
 */
export function reviewedLabelsOf(judgment: string, verdicts: Iterable<ReviewedVerdict>): ReviewedLabels {
  const byQuestion = new Map<string, Map<string, string>>()
  for (const v of verdicts) {
    if (v.judgment !== judgment || v.labels.length !== 1) continue
    let rows = byQuestion.get(v.question)
    if (!rows) byQuestion.set(v.question, (rows = new Map()))
    rows.set(v.state_hash, v.labels[0])
  }
  return byQuestion
}
