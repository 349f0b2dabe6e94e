import { count } from '../../format.ts'
import { MAX_SPOT_CHECKS } from '../../core/review/queue.ts'
import { leftByKind } from '../../core/review/queue-view.ts'
import { stratumCount } from '../../core/review/strata.ts'
import { KINDS, type Kind } from '../../core/review/verdicts.ts'
import type { ReviewData } from '../page-data/review-data.ts'
import { href, html, tokenField, type Html } from '../html.ts'
import { simulatedNote } from './home.ts'
import { pageLinks } from './page-links.ts'
import { heldQueue, holdNote } from './review-holds.ts'
import { progress } from './review-progress.ts'

/** How each kind of row reads on a card. */
export const KIND_TEXT: Readonly<Record<Kind, string>> = {
  disagreement: 'disagrees with the key',
  spot_check: 'spot check',
  split: 'jurors disagree',
  unsure: 'unsure',
}

/** How a count of rows of each kind reads. */
function counted(kind: Kind, n: number): string {
  if (kind === 'disagreement') return `${n} ${n === 1 ? 'disagrees' : 'disagree'} with the key`
  if (kind === 'spot_check') return `${n} ${n === 1 ? 'spot check' : 'spot checks'}`
  return stratumCount(kind, n)
}

const KIND_OPTION: Readonly<Record<Kind, string>> = {
  disagreement: 'disagreements with the key',
  spot_check: 'spot checks',
  split: 'rows where jurors disagree',
  unsure: 'unsure answers',
}

/**
 * The kinds the page names: all but `split` when no row of it is listed nor asked for, as with one model's answers,
 * which no juror dissents from.
 */
function shownKinds(data: ReviewData): Kind[] {
  const split = data.left.split > 0 || data.filter.kind === 'split'
  return KINDS.filter((kind) => kind !== 'split' || split)
}

/** The queue's own parameters, for links that change only the filter or the page (or the judgment). */
function base(data: ReviewData, judgment = data.judgment): Record<string, string | number | undefined> {
  return { path: data.path, node: judgment, reviewer: data.reviewer ?? undefined, audit: data.audit }
}

/** A link to the queue with this filter (null for none) and page 1. */
function filtered(data: ReviewData, kind: Kind | null, question: string | null, token: string | null): string {
  return href('/review', { ...base(data), kind: kind ?? undefined, question: question ?? undefined }, token)
}

/**
 * The top of the review page: title and links, progress, counts per kind, and the form of filter and reviewer. The
 * banner of the last verdict heads the cards (review.ts), where a verdict brings the page back to.
 */
export function reviewHeader(data: ReviewData, token: string | null): Html {
  const others = data.judgments.filter((name) => name !== data.judgment)
  const model =
    data.model === null
      ? ''
      : html` · answers of model <code>${data.model}</code>${simulatedNote([{ model: data.model }])}`
  return html`<h1>Review <code>${data.judgment}</code></h1>
<p class="muted meta"><code>${data.path}</code>${model} · <a href="\
${href('/runs', { path: data.path, node: data.judgment }, token)}">runs and drift</a> · \
<a href="${href('/accuracy', { path: data.path, node: data.judgment }, token)}">accuracy</a>\
${others.map(
  (name) => html` · <a href="${href('/review', base(data, name), token)}">\
review ${name}</a>`,
)}</p>
${progress(data, token)}
${holdNote(data, token)}
${counts(data, token)}
${settings(data, token)}
${range(data)}`
}

/** Rows of each kind the page lists now, for the filter's question or all of them. */
function listedOf(data: ReviewData): Readonly<Record<Kind, number>> {
  const { question } = data.filter
  return question === null ? leftByKind(data.listed_by_question) : data.listed_by_question[question]
}

function counts(data: ReviewData, token: string | null): Html {
  const question = data.filter.question
  const item = (kind: Kind | null, text: string) => {
    const current = data.filter.kind === kind && data.filter.row === null
    return html`<li${current ? html` class="current"` : ''}><a href="${filtered(data, kind, question, token)}"\
${current ? html` aria-current="true"` : ''}>${text}</a></li>`
  }
  const by = listedOf(data)
  const all = KINDS.reduce((n, kind) => n + by[kind], 0)
  return html`<ul class="counts" aria-label="rows waiting for a verdict${question === null ? '' : ` on ${question}`}, \
by kind">
${item(null, `all ${all}`)}
${shownKinds(data).map((kind) => item(kind, counted(kind, by[kind])))}
</ul>${toCome(data)}`
}

/**
 * The spot checks to come, which no filter lists yet: the allocation offers them between unsure rows as verdicts come
 * in (docs/review.md, Review allocation). Nothing when none are.
 */
function toCome(data: ReviewData): Html {
  const { kind, question } = data.filter
  if (kind !== null && kind !== 'spot_check') return html``
  const later = Object.entries(data.spot_checks_later).reduce(
    (n, [q, rows]) => (question === null || q === question ? n + rows : n),
    0,
  )
  if (later === 0) return html``
  return html`<p class="muted to-come">${later} more ${later === 1 ? 'spot check comes' : 'spot checks come'} later: \
the review allocation offers them between unsure rows as verdicts come in.</p>`
}

function settings(data: ReviewData, token: string | null): Html {
  const option = (value: string, text: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${text}</option>`
  const note =
    data.reviewer === null
      ? html`<p class="muted">No reviewer name set: verdicts are signed <code>${data.progress.reviewer}</code>.</p>`
      : ''
  return html`<form method="get" action="/review" class="settings">
<input type="hidden" name="path" value="${data.path}"><input type="hidden" name="node" value="${data.judgment}">\
${tokenField(token)}
<label>Kind <select name="kind">${option('', 'every kind', data.filter.kind === null)}\
${shownKinds(data).map((k) => option(k, KIND_OPTION[k], data.filter.kind === k))}</select></label>
<label>Question <select name="question">${option('', 'every question', data.filter.question === null)}\
${data.questions.map((q) => option(q.name, q.name, data.filter.question === q.name))}</select></label>
${data.filter.row === null ? '' : html`<input type="hidden" name="row" value="${data.filter.row}">`}
<label>Reviewer <input name="reviewer" value="${data.reviewer ?? ''}" maxlength="64" autocomplete="username" \
placeholder="your name"></label>
<label>Spot checks per question \
<input name="audit" type="number" min="0" max="${MAX_SPOT_CHECKS}" value="${data.audit}"></label>
<button type="submit">Show</button>
</form>
${note}`
}

function range(data: ReviewData): Html {
  const { first, total, pages } = data.page
  if (data.cards.length === 0) return html``
  const last = first + data.cards.length - 1
  const row =
    data.filter.row === null
      ? ''
      : html` of row <code>${data.filter.row}</code> · <a href="\
${filtered(data, data.filter.kind, data.filter.question, null)}">every row</a>`
  const keys = html`<span class="keys">Keys: <kbd>1</kbd>–<kbd>9</kbd> the numbered buttons of the current card · \
<kbd>u</kbd> undo · <kbd>s</kbd> skip to the next card · <kbd>?</kbd> more.</span>\
<span id="keys-help" class="keys-help" hidden>The current card is the first, or the one holding the focus; keys do \
nothing while typing in a field. Access keys work too: hold Alt (Alt+Shift in Firefox, Control+Option on a Mac) and \
press the letter on a button of the first card.</span><noscript><span class="keys">With scripts off, single keys do \
nothing: hold Alt (Alt+Shift in Firefox, Control+Option on a Mac) and press the letter on a button of the first \
card.</span></noscript>`
  return html`<p class="muted range">Rows ${first}–${last} of ${total}${row}\
${pages > 1 ? ` · page ${data.page.number} of ${pages}` : ''}. A verdict takes its row off the queue. ${keys}</p>`
}

/** Links to the previous and next pages of the rows shown, when there are several. */
export function pager(data: ReviewData, token: string | null): Html {
  const { number, pages } = data.page
  if (pages <= 1) return html``
  const { filter } = data
  const to = (page: number) =>
    href(
      '/review',
      {
        ...base(data),
        kind: filter.kind ?? undefined,
        question: filter.question ?? undefined,
        row: filter.row ?? undefined,
        page: page > 1 ? page : undefined,
      },
      token,
    )
  return pageLinks(number, pages, to)
}

/** What an empty page says: why nothing is shown, accurately for this judgment, and what to do next. */
export function emptyQueue(data: ReviewData, token: string | null): Html {
  const { filter } = data
  const held = heldQueue(data, token, waiting(data))
  if (held !== null) return held
  if (filter.row !== null) {
    return html`<section class="card empty"><h2>This row is not waiting for a verdict</h2>
<p>Row <code>${filter.row}</code> is not offered\
${filter.question === null ? '' : html` on <code>${filter.question}</code>`}: it has a verdict already, \
or the queue does not pick it (${reasons(data).join('; ')}).</p>
<p><a href="${filtered(data, null, null, token)}">Review the queue</a></p></section>`
  }
  if (filter.kind !== null || filter.question !== null) {
    const what =
      `${filter.kind === null ? 'rows' : KIND_OPTION[filter.kind]}` +
      `${filter.question === null ? '' : ` of ${filter.question}`}`
    return html`<section class="card empty"><h2>None left here</h2><p>No ${what} wait for a verdict. \
<a href="${filtered(data, null, null, token)}">Show every kind and question</a> (${data.progress.left} left).</p>\
</section>`
  }
  if (data.model_answers === 0) return noAnswers(data, token)
  return html`<section class="card empty"><h2>Nothing to review</h2>
<p>No row of <code>${data.judgment}</code> is waiting for a verdict: ${reasons(data).join('; ')}.</p>
<p>Next: <code>judge run</code> adds answers to the store, a larger number of spot checks per question above checks \
more rows, and the <a href="${href('/accuracy', { path: data.path, node: data.judgment }, token)}">accuracy page</a> \
shows what the verdicts so far say.</p></section>`
}

/** Rows waiting for a verdict that the filter (of kind and question) lists now, held by others or not. */
function waiting(data: ReviewData): number {
  const { kind } = data.filter
  const by = listedOf(data)
  const listed = KINDS.reduce((n, k) => (kind === null || kind === k ? n + by[k] : n), 0)
  return listed + data.held_by_others.reduce((n, h) => n + h.rows, 0)
}

/**
 * The queue is empty because the store holds no answers of the model it reads to these questions:
 * says so, names the other models whose answers it holds with the setting that reads them, and
 * the command that asks this model.
 */
function noAnswers(data: ReviewData, token: string | null): Html {
  const model = data.model === null ? html`the engine's default model` : html`model <code>${data.model}</code>`
  const others = data.other_models.map(
    (o) =>
      html`<li>${count(o.answers)} answers of <code>${o.model}</code>: start the server with \
<code>${o.setting}</code> to review them</li>`,
  )
  const held =
    others.length === 0
      ? html`<p>The store holds no answers to these questions from any model yet.</p>`
      : html`<p>The store holds answers to these questions from \
${others.length === 1 ? 'another model' : 'other models'}:</p><ul>${others}</ul>`
  return html`<section class="card empty"><h2>Nothing to review</h2>
<p>No row of <code>${data.judgment}</code> is waiting for a verdict: \
the queue reads the answers of ${model}${data.model === null ? '' : simulatedNote([{ model: data.model }])}, \
and the store holds none to the questions of <code>${data.judgment}</code> as worded now.</p>
${held}
<p>Next: <code>judge run ${data.path}</code> asks ${model} for answers; the \
<a href="${href('/runs', { path: data.path, node: data.judgment }, token)}">runs page</a> shows which models earlier \
runs used.</p></section>`
}

/** Why the queue offers no more rows, in terms of this judgment: the kinds it can offer and their rules. */
function reasons(data: ReviewData): string[] {
  if (data.model_answers === 0)
    return [
      'the store holds no answers ' +
        `of ${data.model === null ? 'the model the queue reads' : `model ${data.model}`} to its questions`,
    ]
  const out: string[] = []
  out.push(
    data.has_key
      ? 'every row that disagrees with the answer key has a verdict'
      : 'the judgment has no answer key, so no row can disagree with one',
  )
  out.push(
    data.audit > 0
      ? `every one of the ${data.audit} spot checks per question has a verdict`
      : 'spot checks are set to 0 per question',
  )
  out.push(
    data.unsure_below > 0
      ? `every answer with a margin below ${data.unsure_below} has a verdict`
      : 'no answer counts as unsure (the margin threshold is 0)',
  )
  return out
}
