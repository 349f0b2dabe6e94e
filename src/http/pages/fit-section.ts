import type { FitRow, QuestionFit, RunFit } from '../../core/fit/fit.ts'
import { href, html, type Html } from '../html.ts'

/** Where a row of lowest mass links: the review page of its question and row. */
export interface FitLinks {
  readonly path: string
  readonly judgment: string
  /** The run the fit is of, named and linked when the page is not that run's own. */
  readonly run?: string
}

const figure = (value: number | null) => (value === null ? '–' : value.toFixed(2))

/**
 * How well each question of a run fits its rows, from its answers' option mass: a table of the
 * figures, then, for each question whose median is below `min_fit`, a warning naming it with its
 * rows of lowest mass. Empty for a run recorded before runs kept their fit; when no answer has a
 * mass (an engine that gives none), one line on the run's own page and nothing elsewhere.
 */
export function fitSection(fit: RunFit | undefined, links: FitLinks, token: string | null): Html {
  const entries = Object.entries(fit ?? {})
  if (entries.length === 0) return html``
  if (entries.every(([, q]) => q.fits === null)) {
    return links.run === undefined
      ? html`<p class="muted" id="fit">The engine gave no option mass for this run's answers, \
so whether its questions fit their rows is not known.</p>`
      : html``
  }
  const rows = entries.map(
    ([question, q]) =>
      html`<tr><td><code>${question}</code></td><td class="num">${q.known} of ${q.answers}</td>\
<td class="num">${figure(q.median)}</td><td class="num">${figure(q.p10)}</td><td class="num">${q.min_fit}</td>\
<td>${verdict(q)}</td></tr>`,
  )
  const warnings = entries
    .filter(([, q]) => q.fits === false)
    .map(([question, q]) => warning(question, q, links, token))
  return html`<h2 id="fit">Does each question fit its rows?</h2>
${
  links.run === undefined
    ? ''
    : html`<p>From the newest run, \
<a href="${href(`/runs/${encodeURIComponent(links.run)}`, { path: links.path }, token)}">\
<code>${links.run}</code></a>.</p>`
}
<p class="muted">The option mass of an answer is the share of the model's next-token probability that fell on the \
question's labels; a low value means the model wanted to answer something else. \
A question whose median is below the spec's <code>min_fit</code> does not fit these rows.</p>
${warnings}<div class="table-wrap"><table class="fit"><thead><tr><th>question</th>\
<th class="num">answers with a mass</th><th class="num">median</th><th class="num">10th percentile</th>\
<th class="num">min_fit</th><th>fits</th></tr></thead><tbody>${rows}</tbody></table></div>`
}

function verdict(q: QuestionFit): Html {
  if (q.fits === null) return html`<span class="muted">unknown (the engine gave no option mass)</span>`
  return q.fits ? html`<span class="good">yes</span>` : html`<span class="alert">no</span>`
}

function warning(question: string, q: QuestionFit, links: FitLinks, token: string | null): Html {
  return html`<section class="card fit-warning"><p class="alert">Question \
<code>${question}</code> does not fit its rows: its median option mass is ${figure(q.median)}, \
below min_fit ${q.min_fit} (10th percentile ${figure(q.p10)}).</p>
<p>For most rows the model's next token was not one of the labels: \
reword the question or its labels so that they answer what these rows hold. The rows of lowest mass:</p>
<ul>${q.lowest.map((row) => lowRow(question, row, links, token))}</ul></section>`
}

function lowRow(question: string, row: FitRow, links: FitLinks, token: string | null): Html {
  const values = row.state
    ? html`${Object.entries(row.state).map(([column, value]) => html`<span class="muted">${column}</span> ${value} `)}`
    : html`<span class="muted">row <code>${row.state_hash}</code> (its values are no longer in the store)</span>`
  const review = href('/review', { path: links.path, node: links.judgment, question, row: row.state_hash }, token)
  return html`<li><strong>${row.option_mass.toFixed(2)}</strong> ${values} <a href="${review}">review</a></li>`
}
