import type { Lease } from '../../core/review/leases.ts'
import type { Card } from '../../core/review/queue.ts'
import type { QueueLeft } from '../../core/review/queue-view.ts'
import type { Kind } from '../../core/review/verdicts.ts'

/** What the rows a filter lists are counted from: the queue as offered to the viewer, its rows left, its holds. */
export interface ListedSource {
  /** The queue's rows as offered to the viewer, read at least as far as the spot checks offered now go. */
  readonly offered: readonly Card[]
  /** Rows left per question, the unsure ones counted in the store. */
  readonly left: QueueLeft
  readonly leases?: readonly Lease[]
}

/** Whether rows of a kind are counted in the store (split and unsure), not off the queue. */
function counted(kind: Kind): kind is 'split' | 'unsure' {
  return kind === 'split' || kind === 'unsure'
}

/**
 * Rows of each kind the page lists now, per question, so that a filter's count is the rows it shows: disagreements
 * and spot checks as the queue offers them (the spot checks the allocation offers now, not those to come), split and
 * unsure rows as the store counts them; none held by another reviewer than `viewer`.
 */
export function listedRows(source: ListedSource, viewer: string | null): QueueLeft {
  const listed: Record<string, Record<Kind, number>> = {}
  for (const [question, kinds] of Object.entries(source.left))
    listed[question] = { disagreement: 0, spot_check: 0, split: kinds.split, unsure: kinds.unsure }
  for (const card of source.offered)
    if (!counted(card.kind) && listed[card.question]) listed[card.question][card.kind] += 1
  // Offered rows leave out those held by others already; the split and unsure counts, from the store, do not.
  for (const lease of source.leases ?? []) {
    const counts = listed[lease.question]
    const kind = lease.card.kind
    if (lease.reviewer !== viewer && counted(kind) && counts) counts[kind] = Math.max(0, counts[kind] - 1)
  }
  return listed
}

/**
 * Spot checks to come per question, which no filter lists yet: those left (`left`) less those offered now, listed or
 * held by another reviewer than `viewer`.
 */
export function spotChecksLater(
  source: ListedSource,
  listed: QueueLeft,
  viewer: string | null,
): Record<string, number> {
  const later: Record<string, number> = {}
  for (const [question, kinds] of Object.entries(source.left))
    later[question] = kinds.spot_check - (listed[question]?.spot_check ?? 0)
  for (const lease of source.leases ?? [])
    if (lease.reviewer !== viewer && lease.card.kind === 'spot_check' && lease.question in later)
      later[lease.question] -= 1
  for (const question of Object.keys(later)) later[question] = Math.max(0, later[question])
  return later
}
