import { distance, percent, plural } from '../../format.ts'
import type { DriftEntry } from '../../core/types.ts'
import { html, type Html } from '../html.ts'

// Okabe-Ito and Tableau hues: told apart by most forms of colour blindness, light or dark.
const PALETTE = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#7f7f7f',
  '#9467bd',
  '#8c564b',
]

/** Runs a chart shows at most: the newest, as many as the run table lists. */
export const CHART_RUNS = 50

/**
 * The labels of a question's runs, each with its colour: the question's labels in spec order,
 * then any others the runs hold (labels since removed) in the order they first appear.
 */
export function labelColours(entries: readonly DriftEntry[], order: readonly string[] = []): [string, string][] {
  const labels = [...new Set([...order, ...entries.flatMap((e) => Object.keys(e.shares))])]
  return labels.map((label, i) => [label, PALETTE[i % PALETTE.length]])
}

/** A run's start as the chart's axis shows it: `2026-01-01 09:00:05` (UTC). */
export function axisDate(startedAt: string | undefined): string {
  return startedAt === undefined ? '' : startedAt.slice(0, 19).replace('T', ' ')
}

/**
 * A question's label shares across runs: one stacked bar per run, newest at the top, as the run
 * table above it is ordered, each labelled on the axis with the run's start; runs whose change is
 * above the alert threshold marked: `drift`, or `other rows` for a run whose previous run was of
 * another command (`unlike`: the answer key after a data file). HTML and CSS rather than a drawing, so that
 * the dates stay readable on a narrow screen. Pure: the drift entries of GET /v1/drift (oldest
 * first) go in.
 */
export function shareChart(
  question: string,
  entries: readonly DriftEntry[],
  order: readonly string[] = [],
  dates: Readonly<Record<string, string>> = {},
  unlike: ReadonlySet<string> = new Set(),
): Html {
  if (entries.length === 0) return html`<p class="muted">No runs yet: <code>judge run</code> records one.</p>`
  const colours = labelColours(entries, order)
  const shown = entries.slice(-CHART_RUNS).reverse()
  const alerts = shown.filter((e) => e.alert && !unlike.has(e.run_id)).length
  const others = shown.filter((e) => e.alert && unlike.has(e.run_id)).length
  const which =
    entries.length > shown.length
      ? `the newest ${shown.length} of ${entries.length} runs`
      : plural(entries.length, 'run')
  const caption =
    `Label shares of ${question} across ${which}, newest ` +
    `first${alerts > 0 ? `; ${alerts} with drift above 0.10` : ''}` +
    `${others > 0 ? `; ${others} changed above 0.10 from a run of other rows, which is not drift` : ''}`
  return html`<figure class="chart-bars">
<figcaption class="muted">${caption}</figcaption>
<div class="axis" aria-hidden="true"><span></span><span>0%</span><span>50%</span><span>100%</span></div>
<ol class="bars">${shown.map((entry) => bar(entry, colours, dates[entry.run_id], unlike.has(entry.run_id)))}</ol>
<ul class="legend">${colours.map(([label, colour]) => swatch(label, colour))}</ul>
</figure>`
}

function bar(
  entry: DriftEntry,
  colours: readonly [string, string][],
  startedAt: string | undefined,
  unlike: boolean,
): Html {
  const parts = colours.flatMap(([label, colour]) => {
    const share = entry.shares[label] ?? 0
    if (share <= 0) return []
    return [
      html`<span style="width:${round(share * 100)}%;background:${colour}" title="${label} ${percent(share)}"></span>`,
    ]
  })
  const said = colours.map(([label]) => `${label} ${percent(entry.shares[label] ?? 0)}`).join(', ')
  const word = unlike ? 'other rows' : 'drift'
  const change = entry.change === null ? '' : distance(entry.change)
  const flag = !entry.alert
    ? ''
    : unlike
      ? html`<span class="flag muted" title="change ${change} above 0.10 from a run of other rows: \
not drift">other rows</span>`
      : html`<span class="flag" title="change ${change} above 0.10">drift</span>`
  return html`<li><span class="date" title="${entry.run_id}">${axisDate(startedAt) || entry.run_id}</span>\
<span class="track" role="img" \
aria-label="${entry.run_id}: ${said}${entry.alert ? `; ${word} ${change}` : ''}">${parts}</span>\
${flag}</li>`
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}

function swatch(label: string, colour: string): Html {
  return html`<li><span class="swatch" style="background:${colour}"></span>${label}</li>`
}
