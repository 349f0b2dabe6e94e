import { ConflictError, UsageError } from '../../errors.ts'
import type { StoredAnswer } from '../../ports/store.ts'
import { rankLabels, readDistribution } from '../judge/answer.ts'
import { isKind, isVerdict, KINDS, labelsSaved, VERDICTS, VERDICTS_BY_KIND, verdictChoices, verdictKey } from './verdicts.ts'
import type { AnswerKey, Kind, KeyRow, VerdictChoice, VerdictRecord, Verdicts } from './verdicts.ts'
import type { Question, Spec, State } from '../types.ts'
import { STRATA, stratumOf, type Stratum } from './strata.ts'

/** Rows per page of the queue (seed 8). */
export const PAGE_SIZE = 25

/** Spot-check rows per question when `audit` is not given (seed 4.4). */
export const DEFAULT_AUDIT = 30

/**
 * The most spot-check rows per question a request may ask for: far more than anyone reviews, few
 * enough that a request cannot make the server read a whole store.
 */
export const MAX_AUDIT = 1000

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
  readonly strata: Readonly<Record<Stratum, StratumRows>>
}

/** Everything buildQueue needs; it reads nothing itself. */
export interface QueueInput {
  readonly spec: Spec
  readonly answers: readonly QuestionAnswers[]
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  /** Row values by state hash, for rows outside the key. */
  readonly states: ReadonlyMap<string, State>
  /** Spot-check rows per question: the first `audit` rows of the confident stratum. */
  readonly audit: number
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
  return keyLabel !== undefined && readDistribution(question, answer.distribution).label !== keyLabel
}

/**
 * Builds the review queue: first every disagreement with the key, then the spot checks (the first
 * `audit` rows of the confident stratum in rank order), then the unsure stratum in rank order,
 * each kind across the questions in spec order. Within a question a row is offered once, under its
 * first kind, and not at all once it has a verdict; reviewed rows are not replaced, so each
 * stratum's sample stays a prefix of its rank order.
 */
export function buildQueue(input: QueueInput): Queue {
  const byKind = new Map<Kind, Card[]>(KINDS.map((k) => [k, []]))
  for (const qa of input.answers) {
    const taken = new Set<string>()
    const ranks = rankIndex(qa)
    for (const kind of KINDS) {
      for (const answer of candidates(kind, qa, input)) {
        if (taken.has(answer.stateHash)) continue
        taken.add(answer.stateHash)
        if (input.verdicts.has(verdictKey(input.spec.name, qa.question.name, answer.stateHash))) continue
        const card = cardOf(input, qa.question, kind, answer, ranks.get(answer.stateHash))
        if (card) byKind.get(kind)!.push(card)
      }
    }
  }
  const offered = KINDS.flatMap((k) => byKind.get(k)!)
  return { spec: input.spec, offered, cards: offered.slice(0, Math.max(0, input.limit)) }
}

function candidates(kind: Kind, qa: QuestionAnswers, input: QueueInput): readonly StoredAnswer[] {
  if (kind === 'spot_check') return qa.strata.confident.rows.slice(0, Math.max(0, input.audit))
  if (kind === 'unsure') return qa.strata.unsure.rows
  // Disagreements in key order, so the page reads like the key file.
  const byHash = new Map(qa.keyed.map((a) => [a.stateHash, a]))
  const rows = [...input.key.values()].filter((row) => byHash.has(row.stateHash))
  return rows.map((row) => byHash.get(row.stateHash)!).filter((a) => disagrees(qa.question, a, input.key.get(a.stateHash)))
}

/** Each row read of a question's strata: its stratum and its place in the stratum's rank order. */
function rankIndex(qa: QuestionAnswers): Map<string, { stratum: Stratum; rank: number }> {
  const index = new Map<string, { stratum: Stratum; rank: number }>()
  for (const stratum of STRATA) qa.strata[stratum].rows.forEach((a, i) => index.set(a.stateHash, { stratum, rank: i + 1 }))
  return index
}

function cardOf(input: QueueInput, question: Question, kind: Kind, answer: StoredAnswer, place: { stratum: Stratum; rank: number } | undefined): Card | null {
  const row = input.key.get(answer.stateHash)
  const state = input.states.get(answer.stateHash) ?? row?.state
  // A row whose values the store never kept cannot be shown, so it cannot be reviewed.
  if (!state) return null
  const reading = readDistribution(question, answer.distribution)
  const keyLabel = row?.labels[question.name] ?? null
  const subject = { modelLabel: reading.label, keyLabel }
  return {
    judgment: input.spec.name, question: question.name, stateHash: answer.stateHash, kind,
    stratum: place?.stratum ?? stratumOf(answer.margin, input.spec.unsureBelow), rank: place?.rank ?? null, state,
    modelLabel: reading.label, p: reading.p, margin: reading.margin,
    top: rankLabels(question, answer.distribution).slice(0, 3), keyLabel,
    verdicts: verdictChoices(kind, question, subject),
  }
}

/** A verdict as a reviewer sends it: every field is unchecked text. */
export interface VerdictRequest {
  readonly question: string
  readonly stateHash: string
  readonly kind: string
  readonly verdict: string
  /** The label of a `labeled` verdict; ignored for the others. */
  readonly label?: string | null
  readonly reviewer: string
  /** UTC timestamp without zone offset. */
  readonly reviewedAt: string
}

/**
 * Checks a verdict against the current queue and returns the record to save. A malformed verdict
 * (unknown question, kind or verdict, a verdict the kind does not take, a `labeled` label the
 * question lacks) is a UsageError (400); a row the queue does not offer as that kind, because it
 * was reviewed already, was never offered or is offered as another kind, is a ConflictError (409)
 * whatever the verdict (seed 7: a kind that differs is 409).
 */
export function checkVerdict(queue: Queue, request: VerdictRequest): VerdictRecord {
  const { spec } = queue
  const question = spec.questions.find((q) => q.name === request.question)
  if (!question) throw new UsageError(`unknown question ${shown(request.question)}; the questions of ${spec.name} are: ${spec.questions.map((q) => q.name).join(', ')}`)
  if (!isKind(request.kind)) throw new UsageError(`unknown kind ${shown(request.kind)}; the kinds are: ${KINDS.join(', ')}`)
  if (!isVerdict(request.verdict)) throw new UsageError(`unknown verdict ${shown(request.verdict)}; the verdicts are: ${VERDICTS.join(', ')}`)
  const { kind, verdict } = request
  const card = offeredCard(queue, question.name, request.stateHash, kind)
  if (!VERDICTS_BY_KIND[kind].includes(verdict)) {
    throw new UsageError(`verdict ${verdict} does not apply to a ${kind} row; it takes: ${VERDICTS_BY_KIND[kind].join(', ')}`)
  }
  const label = verdict === 'labeled' ? request.label ?? '' : null
  if (label !== null && !question.labels.includes(label)) {
    throw new UsageError(`verdict labeled needs a label of question ${question.name} (${question.labels.join(', ')}), not ${shown(label)}`)
  }
  return {
    reviewed_at: request.reviewedAt, reviewer: request.reviewer, judgment: spec.name, question: question.name,
    state_hash: card.stateHash, kind, verdict, labels: labelsSaved(verdict, { modelLabel: card.modelLabel, keyLabel: card.keyLabel, label }),
    model_label: card.modelLabel, key_label: card.keyLabel, state: card.state, stratum: card.stratum, rank: card.rank,
  }
}

function offeredCard(queue: Queue, question: string, stateHash: string, kind: Kind): Card {
  const card = queue.offered.find((c) => c.question === question && c.stateHash === stateHash)
  const row = /^[0-9a-f]{16}$/.test(stateHash) ? `row ${stateHash}` : 'that row'
  if (!card) throw new ConflictError(`question ${question}: the queue does not offer ${row}; it has a verdict already or was never offered`)
  if (card.kind !== kind) throw new ConflictError(`question ${question}: the queue offers ${row} as ${card.kind}, not ${kind}`)
  return card
}

/** Quotes a value from a request for a message, cut short so a message stays readable. */
function shown(value: unknown): string {
  const text = String(value)
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)
}
