import type { Card, Queue } from './queue.ts'

/** A row held for one reviewer (docs/review.md, Leases): the card as offered to them, until when. */
export interface Lease {
  readonly question: string
  readonly stateHash: string
  readonly reviewer: string
  /** Milliseconds since the epoch. */
  readonly until: number
  readonly card: Card
}

/** The key of a row of one question, as holds are keyed. */
export function rowKey(question: string, stateHash: string): string {
  return `${question}\0${stateHash}`
}

/**
 * The queue as one viewer sees it under the holds: rows held by anyone else are not offered; the
 * viewer's own held rows stay offered as they were offered (their kind and labels then), in their
 * place when the queue still offers them, else first, in the order taken, even when new answers
 * have moved the queue since, unless a verdict now stands on the row. A viewer of null (a view
 * without a reviewer name) holds nothing and is offered every row not held. `limit` is the page's end.
 */
export function leasedQueue<Q extends Queue>(
  queue: Q,
  leases: readonly Lease[],
  viewer: string | null,
  reviewed: (question: string, stateHash: string) => boolean,
  limit: number,
): Q {
  if (leases.length === 0) return queue
  const offered = new Set(queue.offered.map((c) => rowKey(c.question, c.stateHash)))
  const mine = new Map(
    leases.filter((l) => l.reviewer === viewer).map((l) => [rowKey(l.question, l.stateHash), l.card]),
  )
  const others = new Set(leases.filter((l) => l.reviewer !== viewer).map((l) => rowKey(l.question, l.stateHash)))
  const moved = [...mine]
    .filter(([key, card]) => !offered.has(key) && !reviewed(card.question, card.stateHash))
    .map(([, card]) => card)
  const kept = queue.offered.flatMap((c) => {
    const key = rowKey(c.question, c.stateHash)
    return others.has(key) ? [] : [mine.get(key) ?? c]
  })
  const all = [...moved, ...kept]
  return { ...queue, offered: all, cards: all.slice(0, Math.max(0, limit)) }
}
