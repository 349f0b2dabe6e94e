import type { QuestionAccuracy } from '../../app/accuracy.ts'
import type { JuryQuestion } from '../../app/juror-accuracy.ts'
import type { VersusJury } from '../../core/jury/juror-accuracy.ts'
import type { JurorWeights, JuryWeights } from '../../core/jury/jury-weights.ts'
import { isSimulated } from '../../core/engine-kinds.ts'
import { formatUsd, percent, plural, points, pValue, withInterval } from '../../format.ts'
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
  return html`<h3>What each juror buys</h3>${figures({ jury, jurors })}${weightsSection(jury.weights)}`
}

function figures({ jury, jurors }: JuryQuestion): Html {
  if (jury.rows === 0) return html`<p class="muted">No reviewed row that the jury and every juror answered yet.</p>`
  const rows = jurors.map(
    (j) => html`<tr><td><code>${j.model}</code></td><td>${j.engine ?? 'ENGINE'}</td>\
<td class="num">${share(j)}</td><td class="num">${versus(j.versus_jury)}</td>\
<td class="num">${cost(j.cost_usd, [j.model])}</td></tr>`,
  )
  return html`
<p>On the ${jury.rows} reviewed rows the jury and every juror answered: the jury <code>${jury.model}</code> is right \
on <strong>${share(jury)}</strong>, for an estimated ${cost(
    jury.cost_usd,
    jurors.map((j) => j.model),
  )}.</p>
<div class="table-wrap"><table><thead><tr><th>juror</th><th>engine</th><th class="num">accuracy (95%)</th>\
<th class="num">juror − jury (95%)</th><th class="num">estimated cost</th></tr></thead>
<tbody>${rows}</tbody></table></div>${term('juror − jury', JURY_MEANING)}`
}

/** What a juror's fitted matrix means, under the jury's weights. */
export const WEIGHTS_MEANING =
  "Until enough reviewed rows have every juror's answer, the jury counts its jurors' labels as equal votes. After, " +
  "it weighs them by Dawid and Skene's model, fitted on every row the jurors answered with the reviewed rows held at " +
  "people's label: a row of a juror's table is people's label, a column the juror's, and each cell how often it " +
  "says that label of such rows, with Wilson's 95% interval from the reviewed rows alone. Its fitted accuracy is " +
  'the diagonal weighed by the fitted share of each label. These are the weights the jury answers with now. The ' +
  'intervals take the reviewed rows as a random sample; the queue offers rows where jurors disagree and unsure rows ' +
  'first, so a juror may be right more often over every row than its table says.'

/**
 * The weights the jury answers a question with: whether it still counts votes equally (and how many more reviewed rows
 * it wants), or, once it weighs its jurors, each juror's fitted accuracy and confusion matrix with its intervals.
 */
export function weightsSection(w: JuryWeights): Html {
  const heading = html`<h4>The jury's weights</h4>`
  if (w.kind === 'vote')
    return html`${heading}<p>The jury counts its jurors' votes equally until <strong>${plural(
      w.needed,
      'more reviewed row',
    )}</strong> with every juror's answer (${w.complete} of ${w.complete + w.needed} so far); then it weighs each \
juror by how often people agreed with it.</p>`
  const shares = Object.entries(w.prior).map(([label, p]) => `${label} ${percent(p)}`)
  const unsettled = w.converged ? '' : `; not converged after ${w.iterations} iterations, its last estimate used`
  return html`${heading}<p>The jury weighs its jurors by ${plural(w.reviewed, 'reviewed row')} (Dawid and \
Skene's model, ${plural(w.iterations, 'iteration')}${unsettled}). The labels' fitted shares: ${shares.join(', ')}.</p>
${w.jurors.map(jurorTable)}${term("the jury's weights", WEIGHTS_MEANING)}`
}

/** One juror's fitted accuracy and its matrix: a row per people's label, a column per its label, point and interval. */
function jurorTable(j: JurorWeights): Html {
  const confusion = j.confusion!
  const labels = Object.keys(confusion)
  const rows = labels.map(
    (truth) =>
      html`<tr><th>${truth}</th>${labels.map(
        (said) =>
          html`<td class="num">${withInterval(confusion[truth][said], j.intervals![truth][said], percent)}</td>`,
      )}</tr>`,
  )
  return html`<p><code>${j.model}</code>: fitted accuracy <strong>${percent(j.accuracy!)}</strong></p>
<div class="table-wrap"><table><thead><tr><th>people's label</th>${labels.map(
    (said) => html`<th class="num">says ${said}</th>`,
  )}</tr></thead><tbody>${rows}</tbody></table></div>`
}
