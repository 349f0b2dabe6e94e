import type { Question, State } from '../types.ts'
import type { Stratum } from './strata.ts'

/** The kinds of row the review queue offers, in the order it offers them (docs/review.md, The queue). */
export const KINDS = ['disagreement', 'spot_check', 'split', 'unsure'] as const

/** A kind of queue row. */
export type Kind = (typeof KINDS)[number]

/** Every verdict a reviewer can give (docs/review.md, Verdicts). */
export const VERDICTS = [
  'model_right',
  'key_right',
  'both_ok',
  'confirmed',
  'labeled',
  'needs_context',
  'ambiguous',
] as const

/** A verdict on one row of one question. */
export type Verdict = (typeof VERDICTS)[number]

/** The button text of each verdict (docs/review.md, Verdicts); `labeled` is followed by the label. */
export const VERDICT_TEXT: Readonly<Record<Verdict, string>> = {
  model_right: 'model is right',
  key_right: 'answer key is right',
  both_ok: 'both acceptable',
  confirmed: 'label is right',
  labeled: 'it is',
  needs_context: 'needs more context',
  ambiguous: 'ambiguous',
}

/** The verdicts each kind of row takes: a disagreement weighs two labels, the others check one. */
export const VERDICTS_BY_KIND: Readonly<Record<Kind, readonly Verdict[]>> = {
  disagreement: ['model_right', 'key_right', 'both_ok', 'labeled', 'needs_context', 'ambiguous'],
  spot_check: ['confirmed', 'labeled', 'needs_context', 'ambiguous'],
  split: ['confirmed', 'labeled', 'needs_context', 'ambiguous'],
  unsure: ['confirmed', 'labeled', 'needs_context', 'ambiguous'],
}

/** One row of an answer key: its state and its key label per question (absent where the key gives none). */
export interface KeyRow {
  readonly stateHash: string
  readonly state: State
  readonly labels: Readonly<Record<string, string>>
  /** Where the row was read, `file:line`, for messages. */
  readonly where: string
}

/** An answer key: its rows by state hash, in file order. */
export type AnswerKey = ReadonlyMap<string, KeyRow>

/** One verdict as the reviews file holds it (docs/review.md, The reviews file): one line per verdict. */
export interface VerdictRecord {
  /** UTC timestamp without zone offset. */
  readonly reviewed_at: string
  readonly reviewer: string
  readonly judgment: string
  readonly question: string
  readonly state_hash: string
  readonly kind: Kind
  readonly verdict: Verdict
  /** The labels the verdict saves (docs/review.md, Verdicts): none, one, or two for `both_ok`. */
  readonly labels: readonly string[]
  readonly model_label: string
  readonly key_label: string | null
  readonly state: State
  /** The stratum of the row's answer when it was reviewed; null in lines written before strata. */
  readonly stratum: Stratum | null
  /** Its place in the stratum's rank order then, from 1; null when not known. */
  readonly rank: number | null
  /** The reviewer's note (note.ts, cleanNote); absent when none was given. */
  readonly note?: string
}

/** The latest verdict of each row, keyed by verdictKey. */
export type Verdicts = ReadonlyMap<string, VerdictRecord>

/** The key of a row's verdicts: judgment, question and state hash. */
export function verdictKey(judgment: string, question: string, stateHash: string): string {
  return `${judgment}\0${question}\0${stateHash}`
}

/** Whether a string names a queue kind. */
export function isKind(value: unknown): value is Kind {
  return (KINDS as readonly unknown[]).includes(value)
}

/** Whether a string names a verdict. */
export function isVerdict(value: unknown): value is Verdict {
  return (VERDICTS as readonly unknown[]).includes(value)
}

/** What a verdict was given on: the model's label, the key's (null without one) and the label chosen for `labeled`. */
export interface VerdictSubject {
  readonly modelLabel: string
  readonly keyLabel: string | null
  readonly label?: string | null
}

/** The label a spot check or unsure row asks the reviewer to confirm: the key's, else the model's. */
export function labelUnderCheck(subject: VerdictSubject): string {
  return subject.keyLabel ?? subject.modelLabel
}

/** The labels a verdict saves (docs/review.md, Verdicts); a disagreement always has a key label. */
export function labelsSaved(verdict: Verdict, subject: VerdictSubject): string[] {
  switch (verdict) {
    case 'model_right':
      return [subject.modelLabel]
    case 'key_right':
      return [subject.keyLabel ?? subject.modelLabel]
    case 'both_ok':
      return [...new Set([subject.modelLabel, subject.keyLabel ?? subject.modelLabel])]
    case 'confirmed':
      return [labelUnderCheck(subject)]
    case 'labeled':
      return subject.label ? [subject.label] : []
    default:
      return []
  }
}

/** A verdict given, in the words of its button: `answer key is right`, `it is promotion`. */
export function verdictText(record: Pick<VerdictRecord, 'verdict' | 'labels'>): string {
  return record.verdict === 'labeled'
    ? `${VERDICT_TEXT.labeled} ${record.labels[0] ?? ''}`.trim()
    : VERDICT_TEXT[record.verdict]
}

/** One verdict button of a card; `label` is set for `labeled`. */
export interface VerdictChoice {
  readonly verdict: Verdict
  readonly label: string | null
  readonly text: string
}

/** The verdict buttons of a row: each verdict the kind takes, with `labeled` once per label not already shown. */
export function verdictChoices(kind: Kind, question: Question, subject: VerdictSubject): VerdictChoice[] {
  const shown = kind === 'disagreement' ? [subject.modelLabel, subject.keyLabel] : [labelUnderCheck(subject)]
  const others = question.labels.filter((l) => !shown.includes(l))
  return VERDICTS_BY_KIND[kind].flatMap((verdict): VerdictChoice[] =>
    verdict === 'labeled'
      ? others.map((label) => ({ verdict, label, text: `${VERDICT_TEXT.labeled} ${label}` }))
      : [{ verdict, label: null, text: VERDICT_TEXT[verdict] }],
  )
}
