import t from 'tap'
import { labelColours, shareChart } from '../../../src/http/pages/chart.ts'
import { percent } from '../../../src/format.ts'
import type { DriftEntry } from '../../../src/core/types.ts'

const entry = (run_id: string, shares: Record<string, number>, change: number | null, alert = false): DriftEntry => ({ run_id, rows: 10, shares, change, alert })

t.test('the chart draws one stacked bar per run with a rectangle per label share', async (t) => {
  const svg = shareChart('is_spam', [entry('r1', { yes: 0.25, no: 0.75 }, null), entry('r2', { yes: 0.5, no: 0.5 }, 0.25, true)]).text
  t.match(svg, /^<svg class="chart" viewBox="0 0 640 200" width="640" role="img" aria-label="Label shares of is_spam across 2 runs, oldest first; 1 with drift above 0.10"/)
  t.match(svg, /<title>Label shares of is_spam across 2 runs/)
  t.equal(svg.match(/<rect /g)?.length, 4)
  t.match(svg, /height="40" fill="#0072b2"><title>r1: yes 25\.0%<\/title>/)
  t.match(svg, /height="120" fill="#e69f00"><title>r1: no 75\.0%<\/title>/)
  t.equal(svg.match(/>!<\/text>/g)?.length, 1, 'the drifting run is marked')
  t.match(svg, /<title>r2: change 0\.250 above 0\.10<\/title>/)
  t.match(svg, /<ul class="legend"><li><span class="swatch" style="background:#0072b2"><\/span>yes<\/li><li><span class="swatch" style="background:#e69f00"><\/span>no<\/li><\/ul>/)
  t.notMatch(svg, /<script/i)
})

t.test('labels and run ids are escaped in the chart', async (t) => {
  const svg = shareChart('q', [entry('<r>', { '<script>alert(1)</script>': 1 }, null)]).text
  t.notMatch(svg, /<script>/)
  t.match(svg, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/)
  t.match(svg, /across 1 run, oldest first"/)
})

t.test('a question with no runs says so instead of drawing', async (t) => {
  t.equal(shareChart('q', []).text, '<p class="muted">No runs yet.</p>')
})

t.test('many runs are drawn without numbers under the bars, and zero shares draw nothing', async (t) => {
  const entries = Array.from({ length: 40 }, (_, i) => entry(`r${i}`, { a: 1, b: 0 }, i === 0 ? null : 0))
  const svg = shareChart('q', entries).text
  t.equal(svg.match(/<rect /g)?.length, 40)
  t.notMatch(svg, />40<\/text>/)
})

t.test('labels take the spec order first, then others as they appear, and keep their colours', async (t) => {
  const colours = labelColours([entry('r1', { no: 0.5, gone: 0.5 }, null)], ['yes', 'no'])
  t.same(colours.map(([label]) => label), ['yes', 'no', 'gone'])
  const svg = shareChart('q', [entry('r1', { no: 1 }, null)], ['yes', 'no']).text
  t.match(svg, /fill="#e69f00"><title>r1: no 100\.0%/, 'no keeps the second colour even when yes has no rows')
})

t.test('labels get colours in order of first appearance, cycling past the palette', async (t) => {
  const labels = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`l${i}`, 1 / 12]))
  const colours = labelColours([entry('r', labels, null)])
  t.equal(colours.length, 12)
  t.equal(colours[10][1], colours[0][1])
  t.equal(percent(0.1234), '12.3%')
})
