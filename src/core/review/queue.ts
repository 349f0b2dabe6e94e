import type { StoredAnswer } from '../../ports/answer-store.ts'
import { rankLabels } from '../judge/answer.ts'
import { KINDS, verdictChoices, verdictKey } from './verdicts.ts'
import type { AnswerKey, Kind, KeyRow, VerdictChoice, Verdicts, VerdictSubject } from './verdicts.ts'
import type { Question, Spec, State } from '../types.ts'
import { isSplit, STRATA, stratumOf, type StrataRead, type Stratum } from './strata.ts'
import { offeredAgain, type Reviews } from './double-review.ts'

/** Rows per page of the queue (docs/review.md, The queue). */
export const PAGE_SIZE = 25

/** Spot-check rows per question when `audit` is not given (docs/review.md, The queue). */
export const DEFAULT_SPOT_CHECKS = 30

/**
 * The most spot-check rows per question a request may ask for: far more than anyone reviews, few
 * enough that a request cannot make the server read a whole store.
 */
export const MAX_SPOT_CHECKS = 1000

/** The first answers of one stratum of a question, in the seeded rank order. */
export interface RankedRows {
  /** Its answers in rank order from the first; only as many as the caller read. */
  readonly rows: readonly StoredAnswer[]
}

/** The first answers of one stratum of a question, in the seeded rank order, and its size. */
export interface StratumRows {
  /** How many answers the stratum holds. */
  readonly size: number
  /** Its answers in rank order from the first; only as many as the caller read. */
  readonly rows: readonly StoredAnswer[]
}

/** What the queue of one question is built from, as read from the store. */
export interface QuestionAnswers {
  readonly question: Question
  /** The current answers of the key's rows, in any order. */
  readonly keyed: readonly StoredAnswer[]
  /**
   * What the queue reads of each stratum: no sizes, which would cost a count of every answer. No `split` rows: none
   * read (one model's answers have none).
   */
  readonly strata: StrataRead<RankedRows>
  /**
   * Unsure and split answers asked for by state beyond the rows read (a reviewer opening one row): offered
   * after those of their stratum, with no rank, as the queue would offer them once read that far.
   */
  readonly extra?: readonly StoredAnswer[]
  /**
   * How deep into the confident stratum's rank order the spot checks go (core/allocation); the queue's `spotChecks`
   * when not given.
   */
  readonly spotChecks?: number
}

/** Everything buildQueue needs; it reads nothing itself. */
export interface QueueInput {
  readonly spec: Spec
  readonly answers: readonly QuestionAnswers[]
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  /**
   * Every standing verdict per row, and who is reviewing: rows chosen for a second review are offered again to others.
   * Without them, none is.
   */
  readonly reviews?: Reviews
  readonly reviewer?: string
  /** Row values by state hash, for rows outside the key. */
  readonly states: ReadonlyMap<string, State>
  /** Spot-check rows per question: the first so many of the confident stratum, unless a question says how deep. */
  readonly spotChecks: number
  readonly limit: number
}

/** One row offered for review under one question. */
export interface Card {
  readonly judgment: string
  readonly question: string
  readonly stateHash: string
  readonly kind: Kind
  /** The stratum of the row's answer. */
  readonly stratum: Stratum
  /** The row's place in its stratum's rank order, from 1; null when not read (a disagreement far down). */
  readonly rank: number | null
  readonly state: State
  readonly modelLabel: string
  readonly p: number
  readonly margin: number
  /** The model's three most probable labels. */
  readonly top: readonly { readonly label: string; readonly p: number }[]
  readonly keyLabel: string | null
  readonly verdicts: readonly VerdictChoice[]
}

/** The queue of one judgment. */
export interface Queue {
  readonly spec: Spec
  /** Every row offered, in queue order: what a verdict is checked against. */
  readonly offered: readonly Card[]
  /** The page shown: the first `limit` rows offered. */
  readonly cards: readonly Card[]
}

/** Whether the model's current answer differs from the key's label for a question. */
export function disagrees(question: Question, answer: StoredAnswer, row: KeyRow | undefined): boolean {
  const keyLabel = row?.labels[question.name]
  return keyLabel !== undefined && answer.label !== keyLabel
}

/**
 * Builds the review queue: first every disagreement with the key (question by question, in key
 * order), then the spot checks (the first `spotChecks` rows of the confident stratum in rank order),
 * then the split stratum (rows where a jury's jurors disagree) and the unsure stratum, each in rank
 * order; spot checks, split and unsure rows take the questions in turn, one row each. Within a
 * question a row is offered once, under its first kind, and not at all once it has a verdict, but
 * for a random-sample row chosen for a second review, which is offered to other reviewers until it
 * has one (double-review.ts); reviewed rows are not replaced, so each stratum's sample stays a
 * prefix of its rank order.
 */
export function buildQueue(input: QueueInput): Queue {
  const byKind = new Map<Kind, Card[][]>(KINDS.map((k) => [k, []]))
  const reviewed = reviewedRows(input)
  for (const qa of input.answers) {
    const taken = new Set<string>()
    const done = reviewed.get(qa.question.name)
    const ranks = rankIndex(qa)
    for (const kind of KINDS) {
      const cards: Card[] = []
      const choices = choicesOf(kind, qa.question)
      for (const answer of candidates(kind, qa, input)) {
        if (taken.has(answer.stateHash)) continue
        taken.add(answer.stateHash)
        if (done?.has(answer.stateHash) && !awaitsSecond(input, qa.question.name, answer.stateHash, kind)) continue
        const card = cardOf(input, qa.question, kind, choices, answer, ranks.get(answer.stateHash))
        if (card) cards.push(card)
      }
      byKind.get(kind)!.push(cards)
    }
  }
  const offered = KINDS.flatMap((k) => (k === 'disagreement' ? byKind.get(k)!.flat() : alternate(byKind.get(k)!)))
  return { spec: input.spec, offered, cards: offered.slice(0, Math.max(0, input.limit)) }
}

/**
 * The state hashes holding a verdict, per question of the judgment. Verdicts are keyed by their own judgment, question
 * and state hash (retraction.ts), so one pass over them answers for every row read, where a key made and looked up
 * per row costs several times as much on a queue read deep into its strata.
 */
function reviewedRows(input: QueueInput): Map<string, Set<string>> {
  const rows = new Map<string, Set<string>>()
  for (const v of input.verdicts.values()) {
    if (v.judgment !== input.spec.name) continue
    let hashes = rows.get(v.question)
    if (hashes === undefined) rows.set(v.question, (hashes = new Set()))
    hashes.add(v.state_hash)
  }
  return rows
}

/** Whether a reviewed row is open to the reviewer as this kind: awaiting their second review. */
function awaitsSecond(input: QueueInput, question: string, stateHash: string, kind: Kind): boolean {
  const stack = input.reviews?.get(verdictKey(input.spec.name, question, stateHash))
  if (stack === undefined || input.reviewer === undefined) return false
  return offeredAgain(stack, {
    judgment: input.spec.name,
    question,
    stateHash,
    kind,
    share: input.spec.doubleReview,
    reviewer: input.reviewer,
  })
}

/** Takes one card of each question in turn, so a reviewer working down the queue samples every question alike. */
function alternate(lists: readonly (readonly Card[])[]): Card[] {
  const out: Card[] = []
  const longest = Math.max(0, ...lists.map((l) => l.length))
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i])
  return out
}

function candidates(kind: Kind, qa: QuestionAnswers, input: QueueInput): readonly StoredAnswer[] {
  if (kind === 'spot_check') return qa.strata.confident.rows.slice(0, Math.max(0, qa.spotChecks ?? input.spotChecks))
  if (kind === 'unsure') return withExtra(qa.strata.unsure.rows, qa.extra, false)
  if (kind === 'split') return withExtra(qa.strata.split?.rows ?? [], qa.extra, true)
  // Disagreements in key order, so the page reads like the key file.
  const byHash = new Map(qa.keyed.map((a) => [a.stateHash, a]))
  const rows = [...input.key.values()].filter((row) => byHash.has(row.stateHash))
  return rows
    .map((row) => byHash.get(row.stateHash)!)
    .filter((a) => disagrees(qa.question, a, input.key.get(a.stateHash)))
}

/** A stratum's rows read, then the rows asked for by state that are in it (split or not). */
function withExtra(
  rows: readonly StoredAnswer[],
  extra: readonly StoredAnswer[] | undefined,
  split: boolean,
): readonly StoredAnswer[] {
  const more = extra?.filter((a) => isSplit(a) === split) ?? []
  return more.length > 0 ? [...rows, ...more] : rows
}

/** Each row read of a question's strata: its stratum and its place in the stratum's rank order. */
function rankIndex(qa: QuestionAnswers): Map<string, { stratum: Stratum; rank: number }> {
  const index = new Map<string, { stratum: Stratum; rank: number }>()
  for (const stratum of STRATA)
    qa.strata[stratum]?.rows.forEach((a, i) => index.set(a.stateHash, { stratum, rank: i + 1 }))
  return index
}

function cardOf(
  input: QueueInput,
  question: Question,
  kind: Kind,
  choices: (subject: VerdictSubject) => readonly VerdictChoice[],
  answer: StoredAnswer,
  place: { stratum: Stratum; rank: number } | undefined,
): Card | null {
  const row = input.key.get(answer.stateHash)
  const state = input.states.get(answer.stateHash) ?? row?.state
  // A row whose values the store never kept cannot be shown, so it cannot be reviewed.
  if (!state) return null
  const keyLabel = row?.labels[question.name] ?? null
  const subject = { modelLabel: answer.label, keyLabel }
  return {
    judgment: input.spec.name,
    question: question.name,
    stateHash: answer.stateHash,
    kind,
    stratum: place?.stratum ?? stratumOf(answer, input.spec.unsureBelow),
    rank: place?.rank ?? null,
    state,
    modelLabel: answer.label,
    p: answer.p,
    margin: answer.margin,
    top: rankLabels(question, answer.distribution, 3),
    keyLabel,
    verdicts: choices(subject),
  }
}

/**
 * The verdict buttons of one question's cards of one kind, made once per model and key label: the queue offers many
 * rows, and they share a few pairs of labels. The cards of a pair share one list; no reader changes it.
 */
function choicesOf(kind: Kind, question: Question): (subject: VerdictSubject) => readonly VerdictChoice[] {
  const made = new Map<string, Map<string | null, readonly VerdictChoice[]>>()
  return (subject) => {
    let byKey = made.get(subject.modelLabel)
    if (byKey === undefined) made.set(subject.modelLabel, (byKey = new Map()))
    let choices = byKey.get(subject.keyLabel)
    if (choices === undefined) byKey.set(subject.keyLabel, (choices = verdictChoices(kind, question, subject)))
    return choices
  }
}
