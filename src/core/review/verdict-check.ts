import { ConflictError, UsageError } from '../../errors.ts'
import { cleanNote } from './note.ts'
import type { Card, Queue } from './queue.ts'
import { isKind, isVerdict, KINDS, labelsSaved, VERDICTS, VERDICTS_BY_KIND } from './verdicts.ts'
import type { Kind, VerdictRecord } from './verdicts.ts'

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
  /** A note to keep with the verdict; cleaned by cleanNote, too long a UsageError. */
  readonly note?: string | null
}

/**
 * Checks a verdict against the current queue and returns the record to save. A malformed verdict
 * (unknown question, kind or verdict, a verdict the kind does not take, a `labeled` label the
 * question lacks) is a UsageError (400); a row the queue does not offer as that kind, because it
 * was reviewed already, was never offered or is offered as another kind, is a ConflictError (409)
 * whatever the verdict (a kind that differs is 409: docs/review.md, Recording a verdict).
 */
export function checkVerdict(queue: Queue, request: VerdictRequest): VerdictRecord {
  const { spec } = queue
  const question = spec.questions.find((q) => q.name === request.question)
  if (!question)
    throw new UsageError(
      `unknown question ${shown(request.question)}; the questions of ${spec.name} ` +
        `are: ${spec.questions.map((q) => q.name).join(', ')}`,
    )
  if (!isKind(request.kind))
    throw new UsageError(`unknown kind ${shown(request.kind)}; the kinds are: ${KINDS.join(', ')}`)
  if (!isVerdict(request.verdict))
    throw new UsageError(`unknown verdict ${shown(request.verdict)}; the verdicts are: ${VERDICTS.join(', ')}`)
  const { kind, verdict } = request
  const note = cleanNote(request.note)
  const card = offeredCard(queue, question.name, request.stateHash, kind)
  if (!VERDICTS_BY_KIND[kind].includes(verdict)) {
    throw new UsageError(
      `verdict ${verdict} does not apply to a ${kind} row; it takes: ${VERDICTS_BY_KIND[kind].join(', ')}`,
    )
  }
  const label = verdict === 'labeled' ? (request.label ?? '') : null
  if (label !== null && !question.labels.includes(label)) {
    throw new UsageError(
      `verdict labeled needs a label of question ${question.name} (${question.labels.join(', ')}), not ${shown(label)}`,
    )
  }
  return {
    reviewed_at: request.reviewedAt,
    reviewer: request.reviewer,
    judgment: spec.name,
    question: question.name,
    state_hash: card.stateHash,
    kind,
    verdict,
    labels: labelsSaved(verdict, { modelLabel: card.modelLabel, keyLabel: card.keyLabel, label }),
    model_label: card.modelLabel,
    key_label: card.keyLabel,
    state: card.state,
    stratum: card.stratum,
    rank: card.rank,
    ...(note === null ? {} : { note }),
  }
}

function offeredCard(queue: Queue, question: string, stateHash: string, kind: Kind): Card {
  const card = queue.offered.find((c) => c.question === question && c.stateHash === stateHash)
  const row = /^[0-9a-f]{16}$/.test(stateHash) ? `row ${stateHash}` : 'that row'
  if (!card)
    throw new ConflictError(
      `question ${question}: the queue does not offer ${row}; it has a verdict already or was never offered`,
    )
  if (card.kind !== kind)
    throw new ConflictError(`question ${question}: the queue offers ${row} as ${card.kind}, not ${kind}`)
  return card
}

/** Quotes a value from a request for a message, cut short so a message stays readable. */
function shown(value: unknown): string {
  const text = String(value)
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)
}
