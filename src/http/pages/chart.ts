import { percent } from '../../format.ts'
import type { DriftEntry } from '../../core/types.ts'
import { html, type Html } from '../html.ts'

// Okabe-Ito and Tableau hues: told apart by most forms of colour blindness, light or dark.
const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#7f7f7f', '#9467bd', '#8c564b']

const WIDTH = 640
const PLOT_TOP = 16
const PLOT_HEIGHT = 160
const LEFT = 40
const RIGHT = 8

/**
 * The labels of a question's runs, each with its colour: the question's labels in spec order,
 * then any others the runs hold (labels since removed) in the order they first appear.
 */
export function labelColours(entries: readonly DriftEntry[], order: readonly string[] = []): [string, string][] {
  const labels = [...new Set([...order, ...entries.flatMap((e) => Object.keys(e.shares))])]
  return labels.map((label, i) => [label, PALETTE[i % PALETTE.length]])
}

/**
 * A question's label shares across runs as inline SVG: one stacked bar per run, oldest first,
 * runs whose change is above the alert threshold marked; with a title, an aria-label and a legend.
 * Pure: the same drift entries GET /v1/drift answers with go in.
 */
export function shareChart(question: string, entries: readonly DriftEntry[], order: readonly string[] = []): Html {
  if (entries.length === 0) return html`<p class="muted">No runs yet.</p>`
  const colours = labelColours(entries, order)
  const slot = (WIDTH - LEFT - RIGHT) / entries.length
  const barWidth = Math.min(48, slot * 0.8)
  const alerts = entries.filter((e) => e.alert).length
  const summary = `Label shares of ${question} across ${entries.length} run${entries.length === 1 ? '' : 's'}, oldest first` +
    (alerts > 0 ? `; ${alerts} with drift above 0.10` : '')
  const bars = entries.map((entry, i) => bar(entry, i, LEFT + slot * i + (slot - barWidth) / 2, barWidth, colours, entries.length))
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${PLOT_TOP + PLOT_HEIGHT + 24}" width="${WIDTH}" role="img" aria-label="${summary}" xmlns="http://www.w3.org/2000/svg">
<title>${summary}</title>
${axis()}
${bars}
</svg>
<ul class="legend">${colours.map(([label, colour]) => html`<li><span class="swatch" style="background:${colour}"></span>${label}</li>`)}</ul>`
}

function axis(): Html[] {
  return [0, 0.5, 1].map((share) => {
    const y = PLOT_TOP + PLOT_HEIGHT * (1 - share)
    return html`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}" stroke="currentColor" stroke-opacity="0.2"/><text x="${LEFT - 6}" y="${y + 4}" text-anchor="end" font-size="11" fill="currentColor">${share * 100}%</text>`
  })
}

function bar(entry: DriftEntry, index: number, x: number, width: number, colours: readonly [string, string][], runs: number): Html {
  let bottom = PLOT_TOP + PLOT_HEIGHT
  const parts = colours.flatMap(([label, colour]) => {
    const share = entry.shares[label] ?? 0
    if (share <= 0) return []
    const height = share * PLOT_HEIGHT
    bottom -= height
    return [html`<rect x="${round(x)}" y="${round(bottom)}" width="${round(width)}" height="${round(height)}" fill="${colour}"><title>${entry.run_id}: ${label} ${percent(share)}</title></rect>`]
  })
  const centre = round(x + width / 2)
  const flag = entry.alert
    ? html`<text x="${centre}" y="${PLOT_TOP - 4}" text-anchor="middle" font-size="12" font-weight="bold" fill="#d55e00"><title>${entry.run_id}: change ${entry.change?.toFixed(3)} above 0.10</title>!</text>`
    : ''
  // Numbering every bar only while the numbers still fit under them.
  const number = runs <= 25 ? html`<text x="${centre}" y="${PLOT_TOP + PLOT_HEIGHT + 16}" text-anchor="middle" font-size="11" fill="currentColor">${index + 1}</text>` : ''
  return html`<g>${parts}${flag}${number}</g>`
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
