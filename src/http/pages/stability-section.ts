import type { StabilityFigures } from '../../app/stability-latest.ts'
import type { Estimate, QuestionStability } from '../../core/stability/figures.ts'
import { decimals, percent, withInterval } from '../../format.ts'
import { html, type Html } from '../html.ts'

const share = (e: Estimate | null) => (e === null ? '–' : withInterval(e.point, e.interval, percent))
const amount = (e: Estimate | null) => (e === null ? '–' : withInterval(e.point, e.interval, decimals(3)))

/**
 * The latest stability check of each question (`judge stability`): how often a label, and a
 * route, changes when the engine is asked again, and the answers near a threshold. Empty before
 * any check.
 */
export function stabilitySection(stability: StabilityFigures | null | undefined): Html {
  const entries = Object.entries(stability ?? {}).filter((e): e is [string, QuestionStability] => e[1] !== null)
  if (entries.length === 0) return html``
  const rows = entries.map(
    ([
      question,
      s,
    ]) => html`<tr><td><code>${question}</code></td><td>${s.checked_at}</td><td class="num">${s.reasked}</td>
<td class="num">${share(s.flip_rate)}</td><td class="num">${amount(s.p_jitter)}</td>\
<td class="num">${share(s.route_flip_rate)}</td><td class="num">${nearText(s)}</td></tr>`,
  )
  return html`<h2 id="stability">Stability: the engine asked again</h2>
<p class="muted">From the latest <code>judge stability</code> of each question: \
a sample of stored answers asked again past the cache, half unsure and half confident, \
weighed back by each stratum's answers, with 95% intervals. A flip rate above the error rate means the noise is the \
larger part of the error. Near a threshold: the stored answers whose p lies within the mean p jitter of a p threshold \
of <code>act</code>, whose route noise of that size could move.</p>
<div class="table-wrap"><table class="stability"><thead><tr><th>question</th><th>checked</th>\
<th class="num">asked again</th><th class="num">flip rate</th><th class="num">p jitter</th>\
<th class="num">route flips</th><th class="num">near a threshold</th></tr></thead><tbody>${rows}</tbody></table></div>`
}

function nearText(s: QuestionStability): string {
  const near = s.near_threshold
  if (near === null) return '–'
  if (near.within === 0) return 'none: no p moved when asked again'
  const of = near.thresholds.join(', ')
  return `${near.count} of ${near.answers} (${percent(near.share)}) within ${near.within.toFixed(3)} of ${of}`
}
