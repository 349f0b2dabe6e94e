import type { App } from '../../app/app.ts'
import type { ReviewQueue } from '../../app/review.ts'
import { holdShown } from '../../app/review-leases.ts'
import { timestamp } from '../../core/judge/deps.ts'
import { holdAllowance } from '../../core/review/hold-bound.ts'
import type { Lease } from '../../core/review/leases.ts'
import { PAGE_SIZE, type Card } from '../../core/review/queue.ts'
import { shows, type QueueFilter } from '../../core/review/queue-view.ts'
import type { Project, Spec } from '../../core/types.ts'

/** Pages of cards read past the one shown, to stand in for cards other reviewers take while it is built. */
export const SPARE_PAGES = 4

/** Rows held now per reviewer. */
export function heldBy(leases: readonly { readonly reviewer: string }[]): Map<string, number> {
  const held = new Map<string, number>()
  for (const l of leases) held.set(l.reviewer, (held.get(l.reviewer) ?? 0) + 1)
  return held
}

/** Rows another reviewer holds now, of those a filter shows: how many, and when the last of their holds ends (UTC). */
export interface HeldByOther {
  readonly reviewer: string
  readonly rows: number
  /** UTC timestamp without zone offset. */
  readonly until: string
}

/** The holds of reviewers other than `viewer` on rows the filter shows, per reviewer, the one free first first. */
export function heldByOthers(leases: readonly Lease[], viewer: string | null, filter: QueueFilter): HeldByOther[] {
  const by = new Map<string, { rows: number; until: number }>()
  for (const lease of leases) {
    if (lease.reviewer === viewer || !shows(filter, lease.card)) continue
    const seen = by.get(lease.reviewer) ?? { rows: 0, until: 0 }
    by.set(lease.reviewer, { rows: seen.rows + 1, until: Math.max(seen.until, lease.until) })
  }
  return [...by]
    .sort(([a, x], [b, y]) => x.until - y.until || a.localeCompare(b))
    .map(([reviewer, held]) => ({ reviewer, rows: held.rows, until: timestamp(new Date(held.until)) }))
}

/** A page to hold for a named reviewer: its queue, its filter, where it starts, its cards' number, rows waiting. */
export interface PageToHold {
  readonly target: { readonly project: Project; readonly spec: Spec; readonly filter: QueueFilter }
  readonly queue: ReviewQueue
  readonly from: number
  readonly size: number
  readonly waiting: number
  readonly seconds: number
}

/**
 * Holds a page's cards for `viewer`, as many as the bound allows (core/review/hold-bound.ts), and fills the page past
 * them with the next cards of the queue, shown unheld: a card passed over because another reviewer took it is not
 * shown. Returns the cards, the held ones first, how many are held, and the rows each reviewer holds now (the viewer's
 * those of the page).
 */
export async function holdPage(
  app: App,
  viewer: string,
  page: PageToHold,
): Promise<{ cards: Card[]; held: number; holds: Map<string, number> }> {
  const { target, queue, from, size } = page
  const candidates = queue.offered
    .filter((c) => shows(target.filter, c))
    .slice(from, from + (SPARE_PAGES + 1) * PAGE_SIZE)
  const holds = heldBy((queue.leases ?? []).filter((l) => l.reviewer !== viewer))
  const others = [...holds.values()].reduce((a, n) => a + n, 0)
  const most = holdAllowance(size, page.waiting, others)
  const taken = await holdShown(app, target, viewer, {
    cards: candidates,
    most,
    seconds: page.seconds,
    reviews: queue.reviews,
  })
  // Every card up to the last one held was asked for; those after it were not, and stand unheld.
  const rest = taken.length < most ? [] : candidates.slice(candidates.indexOf(taken.at(-1)!) + 1)
  holds.set(viewer, taken.length)
  return { cards: [...taken, ...rest].slice(0, size), held: taken.length, holds }
}
