import type { RunAnswer, RunRow } from '../../app/run-detail.ts'
import { percent, plural } from '../../format.ts'
import type { RunPageData } from '../page-data/run.ts'
import { href, html, type Html } from '../html.ts'
import { fitSection } from './fit-section.ts'
import { routesSection } from './run-routes.ts'
import { sourcesSection } from './sources-section.ts'
import { runCost, simulatedNote, status } from './home.ts'
import { layout } from './layout.ts'
import { pageLinks } from './page-links.ts'

/**
 * GET /runs/{run_id}: a run's settings, its label counts per question, then its rows (each
 * distinct state it judged) with their answers and a link to review each, a page at a time. The
 * same data object as GET /v1/runs/{run_id}.
 */
export function runPage(data: RunPageData, token: string | null): Html {
  const { run } = data
  const to = (page: string) => href(page, { path: data.path, node: run.judgment }, token)
  const links = html`<a href="${to('/runs')}">every run of ${run.judgment}</a> · \
<a href="${to('/review')}">review queue</a> · <a href="${to('/accuracy')}">accuracy</a>`
  return layout(
    `Run ${run.run_id}`,
    token,
    html`<h1>Run <code>${run.run_id}</code></h1>
<p class="muted meta">judgment <code>${run.judgment}</code> of <code>${data.path}</code> · ${links}</p>
<h2>Settings</h2>
${settings(data)}
<h2>Label counts</h2>
<div class="split">${Object.entries(data.labels).map(([question, counts]) => labelTable(question, counts, run.rows))}\
</div>
${routesSection(run.routes, run.rows)}
${sourcesSection(run.sources)}
${fitSection(run.fit, { path: data.path, judgment: run.judgment }, token)}
<h2 id="rows">Rows</h2>
${rows(data, token)}`,
  )
}

function settings(data: RunPageData): Html {
  const { run } = data
  const fact = (term: string, value: Html | string | number) => html`<dt>${term}</dt><dd>${value}</dd>`
  const spec = data.spec_changed
    ? html`<code>${run.spec_hash}</code> <span class="alert">(the spec has changed since; \
answers are shown for its current wording)</span>`
    : html`<code>${run.spec_hash}</code> (the spec as it is now)`
  return html`<dl class="facts">
${fact('status', status(run.status))}
${fact('started (UTC)', run.started_at.slice(0, 19).replace('T', ' '))}\
${fact('finished (UTC)', run.finished_at.slice(0, 19).replace('T', ' '))}
${fact('ran on', ranOn(run))}
${fact(
  'model',
  html`<code>${run.model}</code>${
    run.reported_model && run.reported_model !== run.model
      ? html` (the engine reported <code>${run.reported_model}</code>)`
      : ''
  }${simulatedNote([run])}`,
)}
${fact('spec hash', spec)}
${fact(
  'git commit',
  run.git_sha === ''
    ? html`<span class="muted">none (not in a git repository)</span>`
    : html`<code>${run.git_sha}</code>`,
)}
${fact('rows', html`${run.rows} <span class="muted">(${data.states} distinct states)</span>`)}
${fact(
  'answers',
  html`${run.cached} from the store, ${run.asked} asked of the engine in ${plural(run.requests, 'request')}`,
)}
${fact('cost', runCost(run))}
</dl>`
}

/** The command and the rows it ran on, as the run recorded them; runs recorded before that say so. */
function ranOn(run: RunPageData['run']): Html {
  if (run.command === '')
    return html`<span class="muted">not recorded (a run from before runs kept what they ran on)</span>`
  const hash = run.source_hash === '' ? '' : html` <span class="muted">(content <code>${run.source_hash}</code>)</span>`
  const namedFor = run.node !== '' && run.node !== run.judgment ? html`, for <code>${run.node}</code>` : ''
  return html`<code>judge ${run.command}</code> over <code>${run.source}</code>${hash}${namedFor}`
}

function labelTable(question: string, counts: Readonly<Record<string, number>>, total: number): Html {
  const rows = Object.entries(counts).map(
    ([label, n]) =>
      html`<tr><td>${label}</td><td class="num">${n}</td><td class="num">${total > 0 ? percent(n / total) : '–'}</td>\
</tr>`,
  )
  return html`<table class="labels"><thead><tr><th><code>${question}</code></th><th class="num">rows</th>\
<th class="num">share</th></tr></thead><tbody>${rows}</tbody></table>`
}

function rows(data: RunPageData, token: string | null): Html {
  if (data.rows_pruned) {
    return html`<section class="card empty"><p>This run's list of rows was pruned (\
<code>judge runs --prune</code>): its ${data.states} distinct states are counted above but no longer listed. \
Its label counts and drift stay.</p></section>`
  }
  if (data.states === 0) {
    return html`<section class="card empty"><p>This run has no rows on record: it judged none, \
or it was recorded before runs kept the states they judged. Run \
<code>judge run</code> again to record a run with its rows.</p></section>`
  }
  const questions = Object.keys(data.rows[0]?.answers ?? {})
  const { number, pages, first } = data.page
  const head = html`<tr><th>row</th><th>state</th><th class="num">rows</th>\
${questions.map((q) => html`<th><code>${q}</code></th>`)}</tr>`
  return html`<p class="muted">Each distinct state the run judged, in a fixed order (by state hash): \
${first}–${first + data.rows.length - 1} of ${data.states}.</p>
<div class="table-wrap"><table class="run-rows stack"><thead>${head}</thead>\
<tbody>${data.rows.map((row) => rowOf(data, row, token))}</tbody></table></div>
${pages > 1 ? pager(data, number, pages, token) : ''}`
}

function rowOf(data: RunPageData, row: RunRow, token: string | null): Html {
  const state =
    row.state === null
      ? html`<span class="muted">values not in the store</span>`
      : html`${Object.entries(row.state).map(
          ([column, value]) => html`<div><span class="muted">${column}</span> ${value}</div>`,
        )}`
  const answers = Object.entries(row.answers).map(
    ([question, answer]) => html`<td>${answerCell(data, row.state_hash, question, answer, token)}</td>`,
  )
  return html`<tr><td><code class="hash">${row.state_hash}</code></td><td class="state-cell">${state}</td>\
<td class="num" data-label="rows">${row.rows}</td>${answers}</tr>`
}

function answerCell(
  data: RunPageData,
  stateHash: string,
  question: string,
  answer: RunAnswer | null,
  token: string | null,
): Html {
  if (answer === null) return html`<span class="muted">no answer in the store</span>`
  const label = html`<span class="answer"><span class="qname muted">${question}: </span>\
<strong>${answer.label}</strong> ${percent(answer.p)}</span>`
  if (answer.verdict !== null) return html`${label} <span class="good">reviewed: ${answer.verdict.text}</span>`
  const review = href('/review', { path: data.path, node: data.run.judgment, question, row: stateHash }, token)
  return html`${label} <a href="${review}">review</a>`
}

function pager(data: RunPageData, number: number, pages: number, token: string | null): Html {
  const path = `/runs/${encodeURIComponent(data.run.run_id)}`
  const to = (page: number) => `${href(path, { path: data.path, page: page > 1 ? page : undefined }, token)}#rows`
  return pageLinks(number, pages, to)
}
