import type { LikeDrift } from '../../app/runs.ts'
import type { LikeDriftEntry } from '../../core/reports/like-runs.ts'
import { html, type Html } from '../html.ts'
import { distance, pValue } from '../../format.ts'

/**
 * A judgment's like runs: one table per series (command and source), each run against the
 * previous complete run of its series, with every question's change, its alert and, when the
 * engine reported another model, the model's part of it. Drawn from the data of
 * `GET /v1/drift?command=…&source=…`.
 */
export function likeRunsSection(drift: LikeDrift): Html {
  const questions = Object.keys(drift)
  const runs = new Map<string, Map<string, LikeDriftEntry>>()
  for (const [question, entries] of Object.entries(drift)) {
    for (const e of entries) runs.set(e.run_id, (runs.get(e.run_id) ?? new Map()).set(question, e))
  }
  const series = new Map<string, Map<string, LikeDriftEntry>[]>()
  for (const byQuestion of runs.values()) {
    const first = byQuestion.values().next().value!
    const key = `${first.command}\0${first.source}`
    series.set(key, [...(series.get(key) ?? []), byQuestion])
  }
  if (series.size === 0) return html``
  return html`<section class="card"><h4>Like runs</h4>
<p class="muted">Each run against the previous complete run of the same command and source; \
failed runs are shown but never compared against. When the engine reported another model, \
the model's part of a change is measured on the same rows under both models.</p>
${[...series.values()].map((rows) => seriesTable(rows, questions))}</section>`
}

function seriesTable(rows: readonly Map<string, LikeDriftEntry>[], questions: readonly string[]): Html {
  const first = rows[0].values().next().value!
  const name =
    first.command === ''
      ? 'runs recorded before commands and sources were'
      : html`<code>${first.command}</code> of <code>${first.source}</code>`
  const body = rows.map((byQuestion) => {
    const e = byQuestion.values().next().value!
    return html`<tr><td><code>${e.run_id}</code></td>\
<td>${e.status === 'complete' ? 'complete' : html`<span class="alert">failed</span>`}</td>
<td><code>${e.reported_model || '-'}</code></td>\
<td>${e.baseline === null ? html`<span class="muted">first</span>` : html`<code>${e.baseline}</code>`}</td>
${questions.map((q) => changeCell(byQuestion.get(q)))}</tr>`
  })
  return html`<h5>${name}</h5><div class="table-wrap"><table><thead><tr><th>run</th><th>status</th>\
<th>reported model</th><th>compared with</th>
${questions.map((q) => html`<th class="num"><code>${q}</code> change</th>`)}</tr></thead>\
<tbody>${body}</tbody></table></div>`
}

function changeCell(e: LikeDriftEntry | undefined): Html {
  if (!e || e.change === null) return html`<td class="num muted">-</td>`
  const total =
    e.alert && e.significant
      ? html`<span class="alert">${distance(e.change)} drift</span>`
      : e.alert
        ? html`${distance(e.change)} <span class="muted">within noise</span>`
        : html`${distance(e.change)}`
  if (e.model_change === 0) return html`<td class="num">${total}</td>`
  const p = e.model_p_value === null ? '' : ` (${pValue(e.model_p_value)})`
  const model =
    e.model_change === null
      ? 'model part unmeasured'
      : `model ${distance(e.model_change)} on ${e.model_rows} rows${p}, ` +
        `data ${e.data_change === null ? '?' : distance(e.data_change)}`
  return html`<td class="num">${total}<br><span class="muted">${model}</span></td>`
}
