import type { RunningRun } from '../../core/batch/running.ts'
import { formatUsd } from '../../format.ts'
import { html, type Html } from '../html.ts'

/**
 * The runs whose batches are pending at the provider (`judge run --batch`), above the run table:
 * running, with the provider's request counts as last seen, when submitted and the batch ids.
 */
export function runningTable(running: readonly RunningRun[]): Html {
  if (running.length === 0) return html``
  const at = (stamp: string) => stamp.slice(0, 19).replace('T', ' ')
  const rows = running.map(
    (r) => html`<tr><td><code>${r.run_id}</code><br><span class="muted nowrap" \
data-label="submitted">${at(r.submitted_at)}</span></td>
<td data-label="status">running</td><td data-label="judgment">${r.judgment}</td>
<td data-label="batches">${r.batches.map((id, i) => html`<code>${id}</code> ${r.states[i]}<br>`)}</td>
<td class="num" data-label="requests done">${r.completed} of ${r.total}</td>\
<td class="num" data-label="failed">${r.failed}</td>
<td class="num cost" data-label="estimate">$${formatUsd(r.estimate)}</td>\
<td data-label="model"><code>${r.model}</code></td>
<td data-label="counts seen">${at(r.polled_at)}</td></tr>`,
  )
  return html`<section class="card"><h3>Running through the bulk lane</h3>
<p class="muted">Runs whose batches the provider is still answering, with its request counts as last seen; \
running the same <code>judge run --batch</code> again collects them, and each is then listed below as its run.</p>
<div class="table-wrap"><table class="runs stack"><thead><tr><th>run, submitted (UTC)</th><th>status</th>\
<th>judgment</th><th>batches</th><th class="num">requests done</th><th class="num">failed</th>
<th class="num">estimate</th><th>model</th><th>counts seen (UTC)</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`
}
