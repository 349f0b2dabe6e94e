import { MAX_AUDIT, type Card } from '../../core/review/queue.ts'
import { labelUnderCheck, type Kind, type VerdictChoice } from '../../core/review/verdicts.ts'
import { href, html, tokenField, type Html } from '../html.ts'
import { percent } from '../../format.ts'
import { simulatedNote } from './home.ts'
import { layout } from './layout.ts'

/** How each kind of row reads on the page. */
export const KIND_TEXT: Readonly<Record<Kind, string>> = {
  disagreement: 'disagrees with the key',
  spot_check: 'spot check',
  unsure: 'unsure',
}

/** What the review page shows: one judgment's queue, the first page of its cards. */
export interface ReviewData {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  readonly judgment: string
  /** Every judgment the path selects, for moving between their queues. */
  readonly judgments: readonly string[]
  readonly reviewer: string | null
  readonly audit: number
  /** Each question's ask text. */
  readonly asks: Readonly<Record<string, string>>
  /** Rows offered per kind, over the whole queue. */
  readonly counts: Readonly<Record<Kind, number>>
  /** Whether more unsure rows may wait than are counted (only enough to fill a page are read). */
  readonly moreUnsure: boolean
  readonly cards: readonly Card[]
  /** The model whose answers are offered, or null before the store exists. */
  readonly model: string | null
}

// The verdicts that settle the row as shown stand out; the ones that set it aside stay quiet.
const EMPHASIS: Readonly<Record<string, string>> = {
  model_right: 'primary', key_right: 'primary', confirmed: 'primary', needs_context: 'quiet', ambiguous: 'quiet',
}

/**
 * GET /review: a header (judgment, counts per kind, the reviewer's name, links), then one card per
 * row with its state, the question, the model's top labels, the key's label and a button per
 * verdict, each a form that posts to /review. Pure: the data in, the page out.
 */
export function reviewPage(data: ReviewData, token: string | null): Html {
  const cards = data.cards.length === 0 ? emptyQueue(data) : data.cards.map((card, i) => cardOf(data, card, i, token))
  return layout(`Review ${data.judgment}`, token, html`${header(data, token)}
${cards}`)
}

function header(data: ReviewData, token: string | null): Html {
  const others = data.judgments.filter((name) => name !== data.judgment)
  const total = data.counts.disagreement + data.counts.spot_check + data.counts.unsure
  return html`<h1>Review <code>${data.judgment}</code></h1>
<p class="muted"><code>${data.path}</code>${data.model === null ? '' : html` · answers of model <code>${data.model}</code>`}${data.model === null ? '' : simulatedNote([{ model: data.model }])} · <a href="${href('/runs', { path: data.path, node: data.judgment }, token)}">runs and drift</a> · <a href="${href('/', {}, token)}">all projects</a>${others.map((name) => html` · <a href="${href('/review', { path: data.path, node: name, reviewer: data.reviewer ?? undefined, audit: data.audit }, token)}">review ${name}</a>`)}</p>
<ul class="counts" aria-label="rows waiting for a verdict">
<li><strong>${data.counts.disagreement}</strong> ${data.counts.disagreement === 1 ? 'disagrees' : 'disagree'} with the key</li>
<li><strong>${data.counts.spot_check}</strong> ${data.counts.spot_check === 1 ? 'spot check' : 'spot checks'}</li>
<li><strong>${data.counts.unsure}${data.moreUnsure ? ' or more' : ''}</strong> unsure</li>
</ul>
${total > data.cards.length ? html`<p class="muted">Showing the first ${data.cards.length} of ${total}${data.moreUnsure ? ' or more' : ''} rows. A verdict takes its row off the queue.</p>` : ''}
${reviewerForm(data, token)}`
}

function reviewerForm(data: ReviewData, token: string | null): Html {
  const note = data.reviewer === null ? html`<p class="muted">No reviewer name set: verdicts are signed <code>server</code>.</p>` : ''
  return html`<form method="get" action="/review" class="settings">
<input type="hidden" name="path" value="${data.path}"><input type="hidden" name="node" value="${data.judgment}">${tokenField(token)}
<label>Reviewer <input name="reviewer" value="${data.reviewer ?? ''}" maxlength="64" autocomplete="username" placeholder="your name"></label>
<label>Spot checks per question <input name="audit" type="number" min="0" max="${MAX_AUDIT}" value="${data.audit}"></label>
<button type="submit">Apply</button>
</form>
${note}`
}

function emptyQueue(data: ReviewData): Html {
  return html`<section class="card empty"><h2>Nothing to review</h2>
<p>No row of <code>${data.judgment}</code> is waiting for a verdict: none disagrees with the answer key, every row of the spot check
(${data.audit} per question) has a verdict, and no answer is below <code>unsure_below</code>.</p>
<p class="muted">The queue is built from answers already in the store; <code>judge run</code> adds answers.</p></section>`
}

function cardOf(data: ReviewData, card: Card, index: number, token: string | null): Html {
  const id = `card-${index + 1}`
  return html`<section class="card review-card" aria-labelledby="${id}">
<h2 id="${id}"><span class="kind kind-${card.kind}">${KIND_TEXT[card.kind]}</span> <code>${card.question}</code> <span class="muted hash">row ${card.stateHash}</span></h2>
<p class="ask">${data.asks[card.question] ?? card.question}</p>
<table class="state"><tbody>${Object.entries(card.state).map(([column, value]) => html`<tr><th scope="row">${column}</th><td>${value}</td></tr>`)}</tbody></table>
<div class="answers">
<div><span class="muted">Model</span> <ol class="top">${card.top.map((t, i) => html`<li${i === 0 ? html` class="first"` : ''}><span class="label">${t.label}</span> ${percent(t.p)}</li>`)}</ol></div>
<div><span class="muted">Answer key</span> ${card.keyLabel === null ? html`<span class="muted">no label</span>` : html`<span class="label">${card.keyLabel}</span>`}</div>
${card.kind === 'disagreement' ? '' : html`<div><span class="muted">Label under check</span> <span class="label">${labelUnderCheck(card)}</span></div>`}
</div>
<div class="verdicts">${card.verdicts.map((choice, i) => verdictForm(data, card, choice, token, index === 0 && i === 0))}</div>
</section>`
}

function verdictForm(data: ReviewData, card: Card, choice: VerdictChoice, token: string | null, first: boolean): Html {
  const hidden = (name: string, value: string | number) => html`<input type="hidden" name="${name}" value="${value}">`
  // The first button takes the focus, so that a reviewer can work by keyboard from the moment the page loads.
  return html`<form method="post" action="/review">${hidden('path', data.path)}${hidden('node', data.judgment)}${hidden('question', card.question)}${hidden('state', card.stateHash)}${hidden('kind', card.kind)}${hidden('verdict', choice.verdict)}${choice.label === null ? '' : hidden('label', choice.label)}${hidden('reviewer', data.reviewer ?? '')}${hidden('audit', data.audit)}${tokenField(token)}<button type="submit" class="${EMPHASIS[choice.verdict] ?? 'plain'}"${first ? html` autofocus` : ''}>${choice.text}</button></form>`
}
