import type { ReviewData } from '../page-data/review-data.ts'
import type { HeldByOther } from '../page-data/review-holds.ts'
import { href, html, type Html } from '../html.ts'

/** Who holds rows and until when, in words: `ann until 10:42 UTC, bob until 10:45 UTC`. */
export function holders(held: readonly HeldByOther[]): string {
  return held.map((h) => `${h.reviewer} until ${h.until.slice(11, 16)} UTC`).join(', ')
}

/** Rows of the whole queue held by reviewers other than the page's signer. */
export function heldByOthersInAll(data: ReviewData): number {
  return data.reviewers.reduce((n, r) => (r.reviewer === data.progress.reviewer ? n : n + r.held), 0)
}

/** The page itself, opened again: from the page, it holds its cards. */
function samePage(data: ReviewData, token: string | null): string {
  const { filter } = data
  return href(
    '/review',
    {
      path: data.path,
      node: data.judgment,
      reviewer: data.reviewer ?? undefined,
      audit: data.audit,
      kind: filter.kind ?? undefined,
      question: filter.question ?? undefined,
      row: filter.row ?? undefined,
      page: data.page.number > 1 ? data.page.number : undefined,
    },
    token,
  )
}

/** Why some cards shown are not held for the reviewer, when that is so and they have a name. */
export function holdNote(data: ReviewData, token: string | null): Html {
  if (data.cards.length === 0 || data.cards_held === data.cards.length) return html``
  if (data.not_held === 'other_site')
    return html`<p class="muted holds">Opened from another site: these cards are not held for you and your name is \
not remembered here. <a href="${samePage(data, token)}">Hold them and review</a>.</p>`
  if (data.not_held !== 'bounded') return html``
  const unheld = data.cards.length - data.cards_held
  const last = unheld === 1 ? 'the last card here is' : `the last ${unheld} cards are`
  const which = data.cards_held === 0 ? 'the cards here are' : last
  return html`<p class="muted holds">Other reviewers hold ${heldByOthersInAll(data)} of the ${data.progress.left} \
rows waiting, and holds always leave a page of the queue free: ${which} not held for you, so another reviewer may \
give a verdict on one first (yours is then refused, and the next page shows what is left).</p>`
}

/**
 * What an empty page says when rows it would show wait for a verdict but are held by other reviewers: how many wait,
 * who holds them and until when; null when no row it would show is held.
 */
export function heldQueue(data: ReviewData, token: string | null, waiting: number): Html | null {
  const held = data.held_by_others
  if (held.length === 0) return null
  const { filter } = data
  const every = href('/review', { path: data.path, node: data.judgment, reviewer: data.reviewer ?? undefined }, token)
  if (filter.row !== null)
    return html`<section class="card empty"><h2>This row is held by another reviewer</h2>
<p>Row <code>${filter.row}</code> waits for a verdict${
      filter.question === null
        ? ''
        : html` on \
<code>${filter.question}</code>`
    }; it is held by ${holders(held)}. It is offered to you once the hold ends.</p>
<p><a href="${every}">Review the queue</a></p></section>`
  const rows = held.reduce((n, h) => n + h.rows, 0)
  const all = rows < waiting ? `${rows} of them are held` : waiting === 1 ? 'it is held' : 'all are held'
  return html`<section class="card empty"><h2>Held by other reviewers</h2>
<p>${waiting} ${waiting === 1 ? 'row waits' : 'rows wait'} for a verdict here; ${all} by other reviewers \
(${holders(held)}). A hold ends at its time, at its reviewer's verdict or next page, or at an undo.</p>
<p><a href="${every}">Review the queue</a> (${data.progress.left} left).</p></section>`
}
