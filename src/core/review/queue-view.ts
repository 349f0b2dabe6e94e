import type { Card } from './queue.ts'
import { KINDS, type Kind } from './verdicts.ts'

/** Rows of each kind left in the queue, per question. */
export type QueueLeft = Readonly<Record<string, Readonly<Record<Kind, number>>>>

/**
 * Which cards a reviewer asks to see: one kind, one question, one row (state hash), or all. A
 * filter only hides cards: the queue, and so each stratum's sample, is the same whatever it is.
 */
export interface QueueFilter {
  readonly kind: Kind | null
  readonly question: string | null
  readonly row: string | null
}

/** No filter: every card of the queue. */
export const NO_FILTER: QueueFilter = { kind: null, question: null, row: null }

/** One page of the cards a filter shows. */
export interface QueueView {
  readonly cards: readonly Card[]
  /** Rows the filter shows across every page. */
  readonly total: number
  /** The page shown, from 1; a page past the last shows the last. */
  readonly page: number
  readonly pages: number
  /** The place of the page's first card among the rows shown, from 1 (0 when there is none). */
  readonly first: number
}

/** Whether a card passes a filter. */
export function shows(filter: QueueFilter, card: Card): boolean {
  return (
    (filter.kind === null || card.kind === filter.kind) &&
    (filter.question === null || card.question === filter.question) &&
    (filter.row === null || card.stateHash === filter.row)
  )
}

/**
 * Rows the filter shows in the whole queue: counted from `left`, which knows every row, also those
 * the queue has not read yet; for one row, its cards.
 */
export function filteredTotal(offered: readonly Card[], left: QueueLeft, filter: QueueFilter): number {
  if (filter.row !== null) return offered.filter((card) => shows(filter, card)).length
  let total = 0
  for (const [question, kinds] of Object.entries(left)) {
    if (filter.question !== null && question !== filter.question) continue
    for (const kind of KINDS) if (filter.kind === null || kind === filter.kind) total += kinds[kind]
  }
  return total
}

/** The page `page` (from 1) of the cards a filter shows, `size` to a page, in queue order. */
export function viewQueue(
  offered: readonly Card[],
  left: QueueLeft,
  filter: QueueFilter,
  page: number,
  size: number,
): QueueView {
  const total = filteredTotal(offered, left, filter)
  const pages = Math.max(1, Math.ceil(total / size))
  const shown = Math.min(Math.max(1, Math.trunc(page)), pages)
  const cards = offered.filter((card) => shows(filter, card)).slice((shown - 1) * size, shown * size)
  return { cards, total, page: shown, pages, first: cards.length === 0 ? 0 : (shown - 1) * size + 1 }
}

/** Rows of each kind left in the whole queue, over every question. */
export function leftByKind(left: QueueLeft): Record<Kind, number> {
  const sums = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>
  for (const kinds of Object.values(left)) for (const kind of KINDS) sums[kind] += kinds[kind]
  return sums
}
