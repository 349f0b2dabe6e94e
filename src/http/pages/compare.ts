import { CHANGE_WORDS } from '../../core/compare/changes.ts'
import type { QuestionComparison } from '../../core/compare/compare.ts'
import { isSimulated } from '../../core/engine-kinds.ts'
import { costWords, percent, points, pValue } from '../../format.ts'
import { href, html, type Html } from '../html.ts'
import type { CompareData } from '../page-data/compare.ts'
import { layout } from './layout.ts'

const VERDICT_CLASS: Readonly<Record<QuestionComparison['verdict'], string>> = {
  better: 'ok',
  worse: 'alert',
  'no difference shown': 'muted',
  'not enough evidence': 'muted',
  unchanged: 'muted',
}

/**
 * GET /compare: is the candidate more accurate than the live spec, per question: the rows where
 * they differ, the accuracy difference with its interval and the verdict, from the kept rows the
 * store holds both answers for. The same data object as GET /v1/pages/compare.
 */
export function comparePage(data: CompareData, token: string | null): Html {
  const { report } = data
  const cost = (x: number | null, model: string) => (x === null ? 'not estimable' : costWords(x, isSimulated(model)))
  const { live, candidate } = report
  const links = html`<a href="${href('/runs', { path: data.path, node: report.live.judgment }, token)}">runs of \
${report.live.judgment}</a> · <a href="${href('/accuracy', { path: data.path, node: report.live.judgment }, token)}">\
accuracy</a>`
  const review = href('/review', { path: data.path, node: report.live.judgment, compare: data.candidate }, token)
  return layout(
    `Compare ${report.candidate.judgment} with ${report.live.judgment}`,
    token,
    html`<h1>Compare <code>${report.candidate.judgment}</code> with <code>${report.live.judgment}</code></h1>
<p class="muted meta">live <code>${data.path}</code> · candidate <code>${data.candidate}</code> · ${links}</p>
<div class="table-wrap"><table><thead><tr><th></th><th>spec hash</th><th>model</th>\
<th class="num">cost per 1,000 rows</th></tr></thead><tbody>
<tr><th>live</th><td><code>${report.live.spec_hash}</code></td><td><code>${report.live.model}</code></td>\
<td class="num">${cost(report.cost_per_1000.live, live.model)}</td></tr>
<tr><th>candidate</th><td><code>${report.candidate.spec_hash}</code></td><td>\
<code>${report.candidate.model}</code></td>\
<td class="num">${cost(report.cost_per_1000.candidate, candidate.model)}</td></tr>
</tbody></table></div>
<p>${report.compared} of ${report.kept} kept rows compared: those whose candidate answers the store holds (from shadow \
requests, <code>judge replay</code> or <code>judge compare</code>). The page asks nothing of the engine.</p>
${Object.entries(report.questions).map(([name, q]) => questionCard(name, q, report.margin, review))}`,
  )
}

/** A question both specs ask alike: the same answers by construction, nothing to estimate, outside any gate. */
function unchangedCard(name: string, q: QuestionComparison): Html {
  return html`<section class="card"><h2><code>${name}</code></h2><p>Unchanged: asked as the live spec asks it \
(same wording, labels, model, state and store), so its answers are the live ones and the difference is exactly 0; \
${q.rows} rows compared. It is outside any gate.</p>
<p>Verdict: <strong class="${VERDICT_CLASS[q.verdict]}">${q.verdict}</strong>.</p></section>`
}

function questionCard(name: string, q: QuestionComparison, margin: number, review: string): Html {
  if (!q.changed) return unchangedCard(name, q)
  if (q.discordant === null)
    return html`<section class="card"><h2><code>${name}</code></h2><p class="muted">No rows compared.</p></section>`
  const flips = q.flips.map(
    (f) => html`<tr><td>${f.live}</td><td>${f.candidate}</td><td class="num">${f.rows}</td></tr>`,
  )
  const basis =
    q.method === 'discordant rows'
      ? `${q.reviewed} of the ${q.discordant_rows} rows where they differ reviewed, in the comparison's random order`
      : `${q.paired?.rows ?? 0} compared rows with a known label`
  const difference =
    q.difference === null || q.interval === null
      ? html`<p class="muted">No difference estimated yet: no row where they differ has a known label.</p>`
      : html`<p class="figure">Accuracy difference (candidate - live) \
<strong>${points(q.difference)}</strong>, 95% interval ${points(q.interval[0])} to ${points(q.interval[1])}\
${q.p_value === null ? '' : `, ${pValue(q.p_value)}`}.</p>
<p class="muted">By the ${q.method}: ${basis}. The interval is for the traffic the compared rows sample.</p>
${
  q.rows_difference === null
    ? ''
    : html`<p>On these ${q.rows} rows exactly <strong>${points(q.rows_difference)}</strong> (\
${q.discordant_rows === 0 ? 'none differ' : 'every row where they differ has a known label'}).</p>`
}`
  const settle =
    q.reviews_needed > 0
      ? html` <a href="${review}">Review <strong>${q.reviews_needed}</strong> more of the rows where they differ</a> \
to settle it within ±${percent(margin)}${q.next ? html` (next <code>${q.next}</code>)` : ''}.`
      : ''
  return html`<section class="card"><h2><code>${name}</code></h2>
<p>Changed: ${q.changes.map((c) => CHANGE_WORDS[c]).join(', ')}.</p>
<p>${q.rows} rows compared; they differ on <strong>${percent(q.discordant)}</strong> (${q.discordant_rows}).</p>
${
  q.flips.length === 0
    ? ''
    : html`<div class="table-wrap"><table><thead><tr><th>live</th><th>candidate</th>\
<th class="num">rows</th></tr></thead><tbody>${flips}</tbody></table></div>`
}
${difference}
<p>Verdict: <strong class="${VERDICT_CLASS[q.verdict]}">${q.verdict}</strong>.${settle}</p></section>`
}
