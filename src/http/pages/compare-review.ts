import type { CompareCard } from '../../app/compare-review.ts'
import { href, html, tokenField, type Html } from '../html.ts'
import type { CompareReviewData } from '../page-data/compare-review.ts'
import type { ReviewData } from '../page-data/review-data.ts'
import { layout } from './layout.ts'
import { reviewPage } from './review.ts'

/**
 * GET /review?compare=<candidate>: the rows where the live and the candidate spec differ, each
 * with its state, the two labels given (in an order that does not say which spec gave which) and a
 * button per label of the question, posting a comparison verdict to /review. Pure.
 */
export function compareReviewPage(data: CompareReviewData, token: string | null): Html {
  const left = Object.entries(data.left).map(([question, n]) => html`<li><code>${question}</code>: ${n} left</li>`)
  const saved =
    data.saved === null
      ? ''
      : html`<p class="banner" role="status">Saved the label of <code>${data.saved.question}</code> row <code>${data.saved.state_hash}</code>.</p>`
  const cards =
    data.cards.length === 0
      ? html`<section class="card empty"><h2>None left here</h2><p>Every row where the two specs differ has a known label. <a href="${href('/compare', { path: data.path, node: data.judgment, candidate: data.compare }, token)}">See the comparison</a>.</p></section>`
      : data.cards.map((card) => cardOf(data, card, token))
  return layout(
    `Compare review ${data.judgment}`,
    token,
    html`<h1>Rows where two specs differ: <code>${data.judgment}</code></h1>
<p class="muted meta">live <code>${data.path}</code> · candidate <code>${data.compare}</code> · <a href="${href('/compare', { path: data.path, node: data.judgment, candidate: data.compare }, token)}">the comparison</a> · <a href="${href('/review', { path: data.path, node: data.judgment }, token)}">the review queue</a></p>
${saved}
<p>Give each row its true label. The two labels shown are the two specs' answers, in an order that does not say which gave which. These verdicts decide which spec is more accurate; they never enter the review queue's estimate. Signed <code>${data.signer}</code>.</p>
<ul class="counts" aria-label="rows left per question">${left}</ul>
<div id="queue" class="queue">
${cards}
</div>`,
    { skip: { id: 'queue', text: 'the rows' } },
  )
}

function cardOf(data: CompareReviewData, card: CompareCard, token: string | null): Html {
  const id = `row-${card.question}-${card.state_hash}`
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`
  const form = (label: string) =>
    html`<form method="post" action="/review">${hidden('path', data.path)}${hidden('node', data.judgment)}${hidden('compare', data.compare)}${hidden('question', card.question)}${hidden('state', card.state_hash)}${hidden('kind', 'compare')}${hidden('verdict', 'labeled')}${hidden('label', label)}${hidden('reviewer', data.reviewer ?? '')}${tokenField(token)}<button type="submit" class="${card.shown.includes(label) ? 'primary' : 'plain'}">it is ${label}</button></form>`
  return html`<section class="card review-card" aria-labelledby="${id}">
<h2 id="${id}"><code>${card.question}</code> <span class="muted hash">row ${card.state_hash}</span></h2>
<table class="state"><tbody>${Object.entries(card.state).map(([column, value]) => html`<tr><th scope="row">${column}</th><td>${value}</td></tr>`)}</tbody></table>
<p>The two specs said <span class="label">${card.shown[0]}</span> and <span class="label">${card.shown[1]}</span>.</p>
<div class="verdicts">${card.choices.map(form)}</div>
</section>`
}

/** The review page of either mode: the comparison review when the data is one, else the seed's queue. */
export function reviewModePage(data: ReviewData | CompareReviewData, token: string | null): Html {
  return 'compare' in data ? compareReviewPage(data, token) : reviewPage(data, token)
}
