import type { QuestionAccuracy } from '../../app/accuracy.ts'
import type { AccuracyEstimate } from '../../core/review/estimate.ts'
import { neededParts, neededTotal } from '../../core/allocation/reviews-needed.ts'
import { listedStrata, stratumCount, stratumName } from '../../core/review/strata.ts'
import { fewRows, percent, plural } from '../../format.ts'
import type { AccuracyPageData } from '../page-data/accuracy.ts'
import { href, html, type Html } from '../html.ts'
import { calibrationSection, mixSection, thresholdsSection } from './accuracy-sections.ts'
import { jurySection } from './accuracy-jurors.ts'
import { MEANINGS, term } from './accuracy-terms.ts'
import { agreementSection } from './agreement-section.ts'
import { fitSection } from './fit-section.ts'
import { layout } from './layout.ts'
import { textOnlyWarning } from './sources-section.ts'
import { stabilitySection } from './stability-section.ts'

const between = (i: readonly [number, number] | null) => (i === null ? '–' : `${percent(i[0])} to ${percent(i[1])}`)

/**
 * GET /accuracy: one judgment's accuracy per question (the stratified estimate beside the pooled
 * figure, the strata), its calibration, suggested thresholds and corrected label mix, then the act
 * block to paste. The same data object as GET /v1/accuracy.
 */
export function accuracyPage(data: AccuracyPageData, token: string | null): Html {
  const { report } = data
  const links = data.judgments
    .filter((j) => j !== report.judgment)
    .map((j) => html` · <a href="${href('/accuracy', { path: data.path, node: j }, token)}">accuracy of ${j}</a>`)
  const act =
    report.act === null
      ? ''
      : html`<h2>The act block to paste</h2><p class="muted">The spec's \
<code>act</code> with each suggested threshold.</p><pre class="card">${report.act}</pre>`
  return layout(
    `Accuracy of ${report.judgment}`,
    token,
    html`<h1>Accuracy of <code>${report.judgment}</code></h1>
<p><a href="${href('/', {}, token)}">All projects</a> · <a href="\
${href('/runs', { path: data.path, node: report.judgment }, token)}">runs</a> · \
<a href="${href('/review', { path: data.path, node: report.judgment }, token)}">review queue</a>${links}</p>
<p class="muted">Model <code>${report.model ?? 'not known yet'}</code>; \
unsure below a margin of ${report.unsure_below}; answer key <code>${report.key_sample}</code>; \
threshold target ${percent(report.target)}.</p>
${fitSection(data.fit?.fit, { path: data.path, judgment: report.judgment, run: data.fit?.run_id }, token)}
${Object.entries(report.questions).map(([name, q]) => questionSection(name, q))}
${stabilitySection(report.stability)}
${act}`,
  )
}

function questionSection(name: string, q: QuestionAccuracy): Html {
  return html`<section class="card" id="${name}"><h2><code>${name}</code></h2><p class="muted">${q.ask}</p>
${estimateSection(name, q.estimate)}${targetLine(q)}${calibrationSection(name, q.calibration)}\
${textOnlyWarning(name, q.sources)}\
${thresholdsSection(q.thresholds)}${mixSection(q.mix)}${agreementSection(q.labels, q.agreement)}\
${jurySection(q)}</section>`
}

/** The spec's accuracy target: reached, or the reviews per stratum it still takes; nothing without one. */
function targetLine(q: QuestionAccuracy): Html {
  if (q.accuracy_target === null) return html``
  const wanted = html`Target: a 95% interval within ±${percent(q.accuracy_target)}`
  if (q.reviews_needed === null) return html`<p class="target">${wanted}; no answers to estimate yet.</p>`
  const total = neededTotal(q.reviews_needed)
  const parts = neededParts(q.reviews_needed).map((p) => stratumCount(p.stratum, p.reviews))
  return total === 0
    ? html`<p class="target">${wanted}: <strong>reached</strong>.</p>`
    : html`<p class="target">${wanted}: about <strong>${total}</strong> more reviews, \
${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}, as the review queue offers them.</p>`
}

/** Plain words before an estimate that rests on few rows (format.ts, fewRows); nothing otherwise. */
function fewRowsLine(e: AccuracyEstimate, interval: readonly [number, number]): Html {
  const words = fewRows(
    e.strata.reduce((n, s) => n + s.counted, 0),
    interval,
  )
  return words === null ? html`` : html`<p class="figure alert">${words[0].toUpperCase() + words.slice(1)}.</p>`
}

function estimateSection(question: string, e: AccuracyEstimate): Html {
  const answers = e.strata.reduce((n, s) => n + s.size, 0)
  const headline =
    e.estimable && e.point !== null && e.interval !== null
      ? html`${fewRowsLine(e, e.interval)}\
<p class="figure">Estimated accuracy <strong>${percent(e.point)}</strong> (95% interval \
${between(e.interval)}) over all ${answers} answers.</p>`
      : html`<p class="figure alert">Not estimable yet: review ${plural(e.needed, 'more row')} in the order the queue \
offers them.</p>`
  const naive =
    e.naive.accuracy === null
      ? html`<p class="muted">Pooled: no rows with a known label yet.</p>`
      : html`<p>Pooled over the ${e.naive.counted} rows with a known label: \
${percent(e.naive.accuracy)} (${between(e.naive.interval)}). \
<span class="muted">It takes the key and every reviewed row as one random sample; \
rows picked for being hard pull it down.</span></p>`
  const rows = listedStrata(e.strata).map(
    (s) => html`<tr><td>${stratumName(s.stratum)}</td><td class="num">${s.size}</td>\
<td class="num">${s.weight === null ? '–' : percent(s.weight)}</td>
<td class="num">${s.sampled}</td><td class="num">${s.counted}</td><td class="num">${s.correct}</td>\
<td class="num">${s.accuracy === null ? '–' : percent(s.accuracy)}</td>
<td class="num">${s.needs_context}</td><td class="num">${s.ambiguous}</td><td class="num">${s.outside}</td>\
<td class="num">${s.needed}</td></tr>`,
  )
  return html`<h3>Accuracy</h3>${headline}${naive}
<div class="table-wrap"><table><thead><tr><th>stratum</th><th class="num">answers</th><th class="num">weight</th>\
<th class="num">sampled</th><th class="num">labelled</th><th class="num">correct</th><th class="num">accuracy</th>
<th class="num">needs context</th><th class="num">ambiguous</th><th class="num">\
<a href="#${question}-gap">reviewed past a gap</a></th>\
<th class="num">reviews needed</th></tr></thead><tbody>${rows}</tbody></table></div>
${term(e.method, MEANINGS.estimate)}${term('reviewed past a gap', MEANINGS.gap, `${question}-gap`)}`
}
