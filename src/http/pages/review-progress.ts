import { percent } from '../../format.ts'
import type { ReviewData } from '../page-data/review-data.ts'
import { html, tokenField, type Html } from '../html.ts'
import { heldByOthersInAll } from './review-holds.ts'
import { neededParts, neededTotal } from '../../core/allocation/reviews-needed.ts'
import { stratumCount } from '../../core/review/strata.ts'

/**
 * The `pattern` of the reviewer-name field: the names the server takes (reviews-file.ts), written so that browsers
 * compile it, as they do, with the `v` flag (where `-` in a class must be escaped).
 */
export const REVIEWER_PATTERN = String.raw`[\p{L}\p{N}][\p{L}\p{N} ._@\-]{0,63}`

/** The signer's progress (after asking their name, when the page has none), the team's, and the targets'. */
export function progress(data: ReviewData, token: string | null): Html {
  const { reviewed, reviewer, left } = data.progress
  const held = heldByOthersInAll(data)
  return html`${data.reviewer === null ? askName(data, token) : ''}<p class="progress">\
<strong>${reviewed}</strong> reviewed today by <strong>${reviewer}</strong> · \
<strong>${left}</strong> left in the queue${held === 0 ? '' : `, ${held} of them held by other reviewers`}</p>\
${team(data)}${targets(data)}`
}

/** Every reviewer's progress: today's and all-time verdicts standing, and rows held for them now. */
function team(data: ReviewData): Html {
  if (data.reviewers.length === 0) return html``
  const row = (r: ReviewData['reviewers'][number]) =>
    html`<tr${r.reviewer === data.progress.reviewer ? html` class="me"` : ''}><th scope="row">${r.reviewer}</th>\
<td>${r.today}</td><td>${r.all_time}</td><td>${r.held}</td></tr>`
  return html`<details class="team"><summary>Reviewers: ${data.reviewers.length} · ${data.progress.all_time} reviewed \
in all and ${data.progress.held} held now by ${data.progress.reviewer}</summary>
<table class="team"><thead><tr><th scope="col">reviewer</th><th scope="col">today</th><th scope="col">all time</th>\
<th scope="col">held now</th></tr></thead><tbody>${data.reviewers.map(row)}</tbody></table></details>`
}

/**
 * The reviewer's name, asked once: the page remembers it (a cookie), and holds the cards shown to a named reviewer
 * only.
 */
function askName(data: ReviewData, token: string | null): Html {
  return html`<form method="get" action="/review" class="who">
<input type="hidden" name="path" value="${data.path}"><input type="hidden" name="node" value="${data.judgment}">\
${tokenField(token)}
<label>Your name <input name="reviewer" required maxlength="64" pattern="${REVIEWER_PATTERN}" \
autocomplete="username" placeholder="your name"></label>
<button type="submit" class="primary">Start reviewing</button>
<span class="muted">Remembered on this browser. Cards shown to you are held for you, \
so two reviewers never get the same card.</span>
</form>`
}

/** Progress toward each question's accuracy target: reached, or the reviews per stratum it takes. */
function targets(data: ReviewData): Html {
  const items = Object.entries(data.targets).flatMap(([question, t]) => {
    if (t.accuracy_target === null) return []
    const wanted = html`<code>${question}</code> to ±${percent(t.accuracy_target)}`
    if (t.reviews_needed === null) return [html`<li>${wanted}: no answers yet</li>`]
    const total = neededTotal(t.reviews_needed)
    const parts = neededParts(t.reviews_needed).map((p) => stratumCount(p.stratum, p.reviews))
    return [
      total === 0
        ? html`<li class="reached">${wanted}: reached</li>`
        : html`<li>${wanted}: about <strong>${total}</strong> more reviews (${parts.join(', ')})</li>`,
    ]
  })
  return items.length === 0 ? html`` : html`<ul class="targets" aria-label="accuracy targets">${items}</ul>`
}
