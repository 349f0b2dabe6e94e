import type { QuestionAccuracy } from '../../app/accuracy.ts'
import type { VersusJury } from '../../core/jury/juror-accuracy.ts'
import { isSimulated } from '../../core/engine-kinds.ts'
import { formatUsd, percent, points, pValue, withInterval } from '../../format.ts'
import { html, type Html } from '../html.ts'
import { term } from './accuracy-terms.ts'

/** What the jury table's figures mean, under it. */
export const JURY_MEANING =
  'Each juror and the jury on the same rows: those people gave a label and every juror and the jury answered. A ' +
  "juror's accuracy has Wilson's 95% interval; juror − jury is its accuracy minus the jury's on those rows, paired " +
  "row by row as judge compare pairs two specs (Newcombe's interval, McNemar's exact p): an interval across 0 shows " +
  'no difference. The rows are the ones people reviewed, picked by the queue (unsure rows first), so the figures ' +
  "compare the models on those rows, not over every answer. Costs are estimated: each juror's requests for these " +
  "rows at its engine's estimate and price; the jury's is all of them."

const share = (f: { accuracy: number | null; interval: readonly [number, number] | null }) =>
  f.accuracy === null ? '–' : withInterval(f.accuracy, f.interval, percent)
const signed = (d: number) => points(d).replace(/ points$/, '')
const versus = (v: VersusJury | null) =>
  v === null ? '–' : `${withInterval(v.difference, v.interval, signed)} points, ${pValue(v.p_value)}`
// Simulated when every model priced is: a juror's own, or all of them for the jury.
const cost = (usd: number, models: readonly string[]) =>
  `$${formatUsd(usd)}${models.length > 0 && models.every(isSimulated) ? ' (simulated)' : ''}`

/**
 * A jury spec's question: the jury's accuracy and each juror's on the same reviewed rows, each juror against the
 * jury, and what each costs, so that one can see whether a juror is worth its price. Nothing for one model.
 */
export function jurySection(q: Pick<QuestionAccuracy, 'jury' | 'jurors'>): Html {
  const { jury, jurors } = q
  if (!jury || !jurors) return html``
  if (jury.rows === 0)
    return html`<h3>What each juror buys</h3><p class="muted">No reviewed row that the jury and every juror \
answered yet.</p>`
  const rows = jurors.map(
    (j) => html`<tr><td><code>${j.model}</code></td><td>${j.engine ?? 'ENGINE'}</td>\
<td class="num">${share(j)}</td><td class="num">${versus(j.versus_jury)}</td>\
<td class="num">${cost(j.cost_usd, [j.model])}</td></tr>`,
  )
  return html`<h3>What each juror buys</h3>
<p>On the ${jury.rows} reviewed rows the jury and every juror answered: the jury <code>${jury.model}</code> is right \
on <strong>${share(jury)}</strong>, for an estimated ${cost(
    jury.cost_usd,
    jurors.map((j) => j.model),
  )}.</p>
<div class="table-wrap"><table><thead><tr><th>juror</th><th>engine</th><th class="num">accuracy (95%)</th>\
<th class="num">juror − jury (95%)</th><th class="num">estimated cost</th></tr></thead>
<tbody>${rows}</tbody></table></div>${term('juror − jury', JURY_MEANING)}`
}
