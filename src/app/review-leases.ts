import { rowKey, type Lease } from '../core/review/leases.ts'
import type { Reviews } from '../core/review/double-review.ts'
import type { Card } from '../core/review/queue.ts'
import { verdictKey } from '../core/review/verdicts.ts'
import type { Project, Spec } from '../core/types.ts'
import type { LeaseStore } from '../ports/lease-store.ts'
import type { App } from './app.ts'

/**
 * The holds on a judgment's rows at `now`; a hold whose card cannot be read is left out (its row is then offered as the
 * queue has it).
 */
export function liveLeases(store: LeaseStore, spec: Spec, now: Date): Lease[] {
  return store.heldRows(spec.name, now.getTime()).flatMap((row) => {
    const card = cardOf(row.card)
    return card === null
      ? []
      : [{ question: row.question, stateHash: row.stateHash, reviewer: row.reviewer, until: row.until, card }]
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
  const rows = cards.map((card) => ({ question: card.question, stateHash: card.stateHash, card: JSON.stringify(card) }))
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

function cardOf(text: string): Card | null {
  try {
    const card = JSON.parse(text) as Card
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
