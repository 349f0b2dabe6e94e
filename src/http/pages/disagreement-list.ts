import type { QuestionAgreement } from '../../core/agreement/agreement.ts'
import { html, type Html } from '../html.ts'

/**
 * The verdicts of a question that left the model's label out, newest first, each with the reviewer's note: what the
 * model got wrong, in the reviewers' words. Every value is escaped by html``.
 */
export function disagreementList(a: QuestionAgreement): Html {
  if (a.disagreements.length === 0) return html``
  const more = a.disagreements_total > a.disagreements.length ? ` (the newest ${a.disagreements.length})` : ''
  const saved = (labels: readonly string[], verdict: string) =>
    labels.length === 0 ? html`<span class="muted">${verdict}</span>` : labels.join(', ')
  return html`<div class="table-wrap"><table class="disagreements">\
<caption>${a.disagreements_total} ${a.disagreements_total === 1 ? 'verdict' : 'verdicts'} against the model's label\
${more}</caption>
<thead><tr><th>row</th><th>model</th><th>reviewed</th><th>reviewer</th><th>note</th></tr></thead>
<tbody>${a.disagreements.map(
    (d) => html`<tr><td><code>${d.state_hash}</code></td><td>${d.model_label}</td>\
<td>${saved(d.labels, d.verdict)}</td><td>${d.reviewer}</td><td>${d.note ?? html`<span class="muted">–</span>`}</td>\
</tr>`,
  )}</tbody></table></div>`
}
