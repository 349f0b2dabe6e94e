import type { Calibration } from '../../core/review/calibration.ts'
import type { LabelMix } from '../../core/review/label-mix.ts'
import type { RouteThresholds, ThresholdFigures } from '../../core/review/thresholds.ts'
import { percent } from '../../format.ts'
import { html, type Html } from '../html.ts'
import { MEANINGS, term } from './accuracy-terms.ts'
import { reliabilityPlot } from './reliability-plot.ts'

const between = (i: readonly [number, number] | null) => (i === null ? '–' : `${percent(i[0])} to ${percent(i[1])}`)
const share = (v: number | null) => (v === null ? '–' : percent(v))

/** The reliability table of a question, its ECE and plot. */
export function calibrationSection(question: string, c: Calibration): Html {
  const rows = c.bins
    .filter((b) => b.answers > 0)
    .map(
      (b) => html`<tr><td>${percent(b.low)} to ${percent(b.high)}</td><td class="num">${b.answers}</td>
<td class="num">${share(b.confidence)}</td><td class="num">${b.sampled}</td><td class="num">${share(b.accuracy)}</td>\
<td>${between(b.interval)}</td></tr>`,
    )
  const ece =
    c.ece === null
      ? html`<p class="muted">No reviewed rows yet: the expected calibration error needs a sample.</p>`
      : html`<p>Expected calibration error <strong>${percent(c.ece)}</strong>, \
over the bins with a sample (${percent(c.covered)} of the answers).</p>`
  return html`<h3>Calibration</h3>${ece}${term('expected calibration error', MEANINGS.ece)}
<div class="split">${reliabilityPlot(question, c)}
<div class="table-wrap"><table><thead><tr><th>confidence</th><th class="num">answers</th>\
<th class="num">mean confidence</th><th class="num">sampled</th><th class="num">accuracy</th>\
<th>95% interval</th></tr></thead>
<tbody>${rows}</tbody></table></div></div>`
}

function figures(f: ThresholdFigures): Html {
  return html`precision <strong>${share(f.precision)}</strong> (${between(f.interval)}), \
routes ${percent(f.share)} of answers (${f.routed})`
}

/** Each tunable act rule of a question: where it stands, the suggested threshold, and every threshold tried. */
export function thresholdsSection(thresholds: readonly RouteThresholds[]): Html {
  if (thresholds.length === 0)
    return html`<h3>Thresholds</h3><p class="muted">No <code>act</code> rule of this question names a label and tests \
<code>p</code> or <code>margin</code> from below.</p>`
  return html`<h3>Thresholds</h3>${thresholds.map((t) => {
    const rows = t.table.map(
      (r) => html`<tr${r.threshold === t.suggested?.threshold ? html` class="chosen"` : ''}><td>${r.threshold}</td>\
<td class="num">${percent(r.share)}</td>
<td class="num">${r.sampled}</td><td class="num">${share(r.precision)}</td><td>${between(r.interval)}</td></tr>`,
    )
    const suggestion = t.suggested
      ? html`<p>Suggested: <code>${t.variable}: "&gt;= ${t.suggested.threshold}"</code>: ${figures(t.suggested)}.</p>`
      : html`<p class="alert">No threshold reaches ${percent(t.target)} at the lower end of its 95% interval: \
review more rows.</p>`
    return html`<section class="card"><h4>route <code>${t.route}</code> (label ${t.labels.join(' or ')})</h4>
<p>Now <code>${t.variable}: "${t.current.comparison}"</code>: ${figures(t.current)}.</p>${suggestion}
<details><summary>Every threshold tried (${t.table.length})</summary><div class="table-wrap"><table><thead><tr>\
<th>${t.variable} at least</th><th class="num">routes</th><th class="num">sampled</th><th class="num">precision</th>\
<th>95% interval</th></tr></thead>
<tbody>${rows}</tbody></table></div></details></section>`
  })}`
}

/** The label mix as the model gives it and as estimated from it and the reviews. */
export function mixSection(mix: LabelMix): Html {
  const rows = mix.labels.map((l) => {
    const c = mix.corrected?.[l]
    return html`<tr><td>${l}</td><td class="num">${percent(mix.raw[l] ?? 0)}</td>\
<td class="num">${c ? percent(c.share) : '–'}</td><td>${c ? between(c.interval) : '–'}</td></tr>`
  })
  const note =
    mix.corrected === null
      ? html`<p class="muted">No estimated true mix: ${mix.reason}.</p>`
      : html`<p class="muted">The true mix by ${mix.method}: the model's share over every answer, \
corrected by what the reviewed rows show of its errors.</p>${term(mix.method, MEANINGS.mix)}`
  return html`<h3>Label mix</h3>${note}
<div class="table-wrap"><table><thead><tr><th>label</th><th class="num">as labelled</th>\
<th class="num">estimated true share</th><th>95% interval</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
