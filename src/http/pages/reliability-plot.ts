import type { Calibration } from '../../core/review/calibration.ts'
import { percent } from '../../format.ts'
import { html, type Html } from '../html.ts'

const SIZE = 280
const PAD = 44

const x = (confidence: number) => PAD + confidence * (SIZE - 2 * PAD)
const y = (accuracy: number) => SIZE - PAD - accuracy * (SIZE - 2 * PAD)
const round = (v: number) => Math.round(v * 10) / 10

/**
 * A reliability plot as inline SVG: each bin with a sample is a dot at (mean confidence, observed
 * accuracy), its area by its share of the answers, with its 95% interval as a bar; the diagonal is
 * perfect calibration. Pure: the calibration of GET /v1/accuracy goes in, markup comes out.
 */
export function reliabilityPlot(question: string, c: Calibration): Html {
  const bins = c.bins.filter((b) => b.accuracy !== null && b.confidence !== null)
  const summary =
    c.ece === null
      ? `Reliability of ${question}: no reviewed rows to plot yet`
      : `Reliability of ${question}: accuracy against confidence in ${bins.length} bins; ` +
        `expected calibration error ${percent(c.ece)}`
  const ticks = [0, 0.5, 1].map(
    (v) =>
      html`<text x="${x(v)}" y="${SIZE - PAD + 16}" text-anchor="middle" font-size="11" fill="currentColor">${v * 100}%\
</text><text x="${PAD - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="currentColor">${v * 100}%</text>`,
  )
  const dots = bins.map((b) => {
    const [low, high] = b.interval ?? [b.accuracy!, b.accuracy!]
    const r = round(3 + 9 * Math.sqrt(b.share))
    const label =
      `confidence ${percent(b.low)} to ${percent(b.high)}: ${b.answers} answers, ${b.sampled} reviewed, ` +
      `accuracy ${percent(b.accuracy!)} (${percent(low)} to ${percent(high)})`
    return html`<g><title>${label}</title><line x1="${round(x(b.confidence!))}" x2="${round(x(b.confidence!))}" \
y1="${round(y(low))}" y2="${round(y(high))}" stroke="currentColor" stroke-opacity="0.5"/>\
<circle cx="${round(x(b.confidence!))}" cy="${round(y(b.accuracy!))}" r="${r}" fill="#0072b2" fill-opacity="0.75"/></g>`
  })
  return html`<svg class="chart reliability" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" role="img" \
aria-label="${summary}" xmlns="http://www.w3.org/2000/svg">
<title>${summary}</title>
<rect x="${PAD}" y="${PAD}" width="${SIZE - 2 * PAD}" height="${SIZE - 2 * PAD}" fill="none" stroke="currentColor" \
stroke-opacity="0.2"/>
<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="currentColor" stroke-opacity="0.35" \
stroke-dasharray="4 4"/>
${ticks}
<text x="${SIZE / 2}" y="${SIZE - 4}" text-anchor="middle" font-size="11" fill="currentColor">confidence</text>
<text x="10" y="${SIZE / 2}" text-anchor="middle" font-size="11" fill="currentColor" transform="rotate(-90 \
10 ${SIZE / 2})">accuracy</text>
${dots}
</svg>`
}
