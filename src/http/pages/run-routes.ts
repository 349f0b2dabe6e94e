import type { RouteCounts } from '../../core/types.ts'
import { percent } from '../../format.ts'
import { html, type Html } from '../html.ts'

/**
 * A run's rows per route, a table per question with `act` rules: what the spec sent where. Rows
 * no rule routed read `no route`.
 */
export function routesSection(routes: RouteCounts | undefined, rows: number): Html {
  const questions = Object.entries(routes ?? {})
  if (questions.length === 0) {
    return html`<h2>Routes</h2>
<p class="muted">No routes counted: the spec had no <code>act</code> rules, \
or the run was recorded before runs counted their routes.</p>`
  }
  return html`<h2>Routes</h2>
<div class="split">${questions.map(([question, counts]) => routeTable(question, counts, rows))}</div>`
}

function routeTable(question: string, counts: Readonly<Record<string, number>>, total: number): Html {
  const rows = Object.entries(counts).map(
    ([route, n]) =>
      html`<tr><td>${route === '' ? html`<span class="muted">no route</span>` : route}</td><td class="num">${n}</td>\
<td class="num">${total > 0 ? percent(n / total) : '–'}</td></tr>`,
  )
  return html`<table class="labels routes"><thead><tr><th><code>${question}</code> route</th><th class="num">rows</th>\
<th class="num">share</th></tr></thead><tbody>${rows}</tbody></table>`
}
