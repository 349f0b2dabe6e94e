import type { LikeDrift } from '../../app/runs.ts'
import type { LikeDriftEntry } from '../../core/reports/like-runs.ts'
import type { DataComparison } from '../../core/reports/data-comparison.ts'
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
<p class="muted">Each run against the previous complete run of the same command and source (same data: \
the model moved); failed runs are shown but never compared against. When the engine reported another model, \
the model's part of a change is measured on the same rows under both models. Under it, the change on other data: \
against the previous complete run of the same command on another source (the data moved).</p>
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
<th>reported model</th><th>compared with (same data)</th>
${questions.map((q) => html`<th class="num"><code>${q}</code> change</th>`)}</tr></thead>\
<tbody>${body}</tbody></table></div>`
}

function changeCell(e: LikeDriftEntry | undefined): Html {
  if (!e || (e.change === null && e.other_data === null)) return html`<td class="num muted">-</td>`
  return html`<td class="num">${sameData(e)}${otherData(e.other_data)}</td>`
}

/** The change on the same data, with the model's part of it when the engine reported another model. */
function sameData(e: LikeDriftEntry): Html {
  if (e.change === null) return html`<span class="muted">-</span>`
  const total = flagged(e.change, e)
  if (e.model_change === 0) return total
  const p = e.model_p_value === null ? '' : ` (${pValue(e.model_p_value)})`
  const model =
    e.model_change === null
      ? 'model part unmeasured'
      : `model ${distance(e.model_change)} on ${e.model_rows} rows${p}, ` +
        `data ${e.data_change === null ? '?' : distance(e.data_change)}`
  return html`${total}<br><span class="muted">${model}</span>`
}

/** The change on other data, against the source it was compared with: where the data moved. */
function otherData(other: DataComparison | null): Html {
  if (other === null) return html``
  return html`<br><span class="other-data">other data ${flagged(other.change, other)}</span>\
<br><span class="muted">vs <code>${other.source}</code></span>`
}

function flagged(change: number, e: Pick<LikeDriftEntry, 'alert' | 'significant'>): Html {
  if (e.alert && e.significant) return html`<span class="alert">${distance(change)} drift</span>`
  return e.alert ? html`${distance(change)} <span class="muted">within noise</span>` : html`${distance(change)}`
}
