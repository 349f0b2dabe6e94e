import { rowKey, type Lease } from '../core/review/leases.ts'
import type { Reviews } from '../core/review/double-review.ts'
import type { Card } from '../core/review/queue.ts'
import { verdictKey, type AnswerKey } from '../core/review/verdicts.ts'
import type { Project, Spec, State } from '../core/types.ts'
import type { AnswerStore } from '../ports/answer-store.ts'
import type { LeaseStore } from '../ports/lease-store.ts'
import type { App } from './app.ts'

/**
 * The holds on a judgment's rows at `now`, each card with its row's values as the answer key or the store holds them
 * now (a hold keeps none); a hold whose card cannot be read is left out (its row is then offered as the queue has it),
 * and so is one whose values are gone (forgotten): its row is offered no more.
 */
export function liveLeases(
  store: LeaseStore & Pick<AnswerStore, 'getStates'>,
  spec: Spec,
  key: AnswerKey,
  now: Date,
): Lease[] {
  const held = store.heldRows(spec.name, now.getTime())
  const outside = [...new Set(held.map((row) => row.stateHash).filter((hash) => !key.has(hash)))]
  const stored = outside.length > 0 ? store.getStates(outside) : new Map<string, State>()
  return held.flatMap((row) => {
    const card = cardOf(row.card)
    const state = key.get(row.stateHash)?.state ?? stored.get(row.stateHash)
    return card === null || state === undefined
      ? []
      : [
          {
            question: row.question,
            stateHash: row.stateHash,
            reviewer: row.reviewer,
            until: row.until,
            card: { ...card, state },
          },
        ]
  })
}

/**
 * Holds up to `most` of the cards offered to a named reviewer, in order, for `seconds`, releasing
 * what they held before, in one write of the store; returns the cards taken, in order: a card
 * another reviewer took since the queue was read is passed over for the next one.
 */
export function holdCards(
  store: LeaseStore,
  spec: Spec,
  reviewer: string,
  cards: readonly Card[],
  most: number,
  now: Date,
  seconds: number,
): Card[] {
  const rows = cards.map((card) => ({ question: card.question, stateHash: card.stateHash, card: heldCard(card) }))
  const taken = store.holdRows(spec.name, reviewer, rows, now.getTime(), now.getTime() + seconds * 1000, most)
  return cards.filter((card) => taken.has(rowKey(card.question, card.stateHash)))
}

/**
 * holdCards on a project's store, which holds nothing before it exists (nothing is offered then).
 * The reviews file is read again once the cards are held: a card whose row got a verdict (or an
 * undo) after `reviews` was read, and before another reviewer's verdict released its hold, is let
 * go and left off, so that a page never shows a card its queue no longer offers.
 */
export async function holdShown(
  app: App,
  target: { project: Project; spec: Spec },
  reviewer: string,
  offer: HeldOffer,
): Promise<Card[]> {
  const { project, spec } = target
  const store = app.existingStore(project)
  if (store === null) return offer.cards.slice(0, offer.most)
  const taken = holdCards(store, spec, reviewer, offer.cards, offer.most, app.now(), offer.seconds)
  const now = await app.files.reviews(spec)
  const depth = (reviews: Reviews, card: Card) =>
    reviews.get(verdictKey(spec.name, card.question, card.stateHash))?.length ?? 0
  const moved = taken.filter((card) => depth(now, card) !== depth(offer.reviews, card))
  for (const card of moved) store.releaseRow(spec.name, card.question, card.stateHash)
  return taken.filter((card) => !moved.includes(card))
}

/**
 * What a page offers a reviewer to hold: its cards in order, how many to take, for how long, and the verdicts it was
 * built from.
 */
export interface HeldOffer {
  readonly cards: readonly Card[]
  readonly most: number
  readonly seconds: number
  readonly reviews: Reviews
}

/** A card as a hold keeps it: JSON text without the row's values, which are read again when it is shown. */
function heldCard(card: Card): string {
  const { state: _values, ...rest } = card
  return JSON.stringify(rest)
}

function cardOf(text: string): Omit<Card, 'state'> | null {
  try {
    const card = JSON.parse(text) as Omit<Card, 'state'>
    return typeof card === 'object' &&
      card !== null &&
      typeof card.stateHash === 'string' &&
      Array.isArray(card.verdicts)
      ? card
      : null
  } catch {
    return null
  }
}
