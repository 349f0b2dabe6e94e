import t from 'tap'
import { axisDate, CHART_RUNS, labelColours, shareChart } from '../../../src/http/pages/chart.ts'
import { percent } from '../../../src/format.ts'
import type { DriftEntry } from '../../../src/core/types.ts'

const entry = (run_id: string, shares: Record<string, number>, change: number | null, alert = false): DriftEntry => ({
  run_id,
  rows: 10,
  shares,
  change,
  alert,
  p_value: change === null ? null : 0.5,
  significant: false,
})

t.test(
  'the chart draws one stacked bar per run, newest first, a part per label share, each run dated on the axis',
  async (t) => {
    const html = shareChart(
      'is_spam',
      [entry('r1', { yes: 0.25, no: 0.75 }, null), entry('r2', { yes: 0.5, no: 0.5 }, 0.25, true)],
      [],
      { r1: '2026-01-01T09:00:00.000', r2: '2026-01-02T09:30:15.500' },
    ).text
    t.match(
      html,
      /^<figure class="chart-bars">\n<figcaption class="muted">Label shares of is_spam across 2 runs, newest first; 1 with drift above 0\.10<\/figcaption>/,
    )
    const rows = [...html.matchAll(/<li><span class="date" title="(\w+)">([^<]+)<\/span>/g)].map((m) => [m[1], m[2]])
    t.same(rows, [
      ['r2', '2026-01-02 09:30:15'],
      ['r1', '2026-01-01 09:00:00'],
    ])
    t.equal(html.match(/<span style="width:/g)?.length, 4)
    t.match(
      html,
      /<span style="width:25%;background:#0072b2" title="yes 25\.0%"><\/span><span style="width:75%;background:#e69f00" title="no 75\.0%"><\/span>/,
    )
    t.match(html, /role="img" aria-label="r2: yes 50\.0%, no 50\.0%; drift 0\.250"/)
    t.equal(html.match(/class="flag"/g)?.length, 1, 'the drifting run is marked')
    t.match(html, /<span class="flag" title="change 0\.250 above 0\.10">drift<\/span>/)
    t.match(
      html,
      /<ul class="legend"><li><span class="swatch" style="background:#0072b2"><\/span>yes<\/li><li><span class="swatch" style="background:#e69f00"><\/span>no<\/li><\/ul>/,
    )
    t.notMatch(html, /<script|<svg/i)
  },
)

t.test('labels and run ids are escaped in the chart; a run without a known start shows its id', async (t) => {
  const html = shareChart('q', [entry('<r>', { '<script>alert(1)</script>': 1 }, null)]).text
  t.notMatch(html, /<script>/)
  t.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/)
  t.match(html, /<span class="date" title="&lt;r&gt;">&lt;r&gt;<\/span>/)
  t.match(html, /across 1 run, newest first</)
})

t.test('a question with no runs says so, and what makes one', async (t) => {
  t.equal(shareChart('q', []).text, '<p class="muted">No runs yet: <code>judge run</code> records one.</p>')
})

t.test('the newest runs are shown, as many as the run table lists, and zero shares draw nothing', async (t) => {
  const entries = Array.from({ length: CHART_RUNS + 10 }, (_, i) => entry(`r${i}`, { a: 1, b: 0 }, i === 0 ? null : 0))
  const html = shareChart('q', entries).text
  t.equal(html.match(/<li><span class="date"/g)?.length, CHART_RUNS)
  t.match(html, /across the newest 50 of 60 runs, newest first/)
  t.match(html, /title="r59"/)
  t.notMatch(html, /title="r9"/)
  t.equal(html.match(/<span style="width:/g)?.length, CHART_RUNS)
})

t.test('labels take the spec order first, then others as they appear, and keep their colours', async (t) => {
  const colours = labelColours([entry('r1', { no: 0.5, gone: 0.5 }, null)], ['yes', 'no'])
  t.same(
    colours.map(([label]) => label),
    ['yes', 'no', 'gone'],
  )
  const html = shareChart('q', [entry('r1', { no: 1 }, null)], ['yes', 'no']).text
  t.match(html, /background:#e69f00" title="no 100\.0%"/, 'no keeps the second colour even when yes has no rows')
})

t.test(
  'labels get colours in order of first appearance, cycling past the palette; the axis shows dates to the second',
  async (t) => {
    const labels = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`l${i}`, 1 / 12]))
    const colours = labelColours([entry('r', labels, null)])
    t.equal(colours.length, 12)
    t.equal(colours[10][1], colours[0][1])
    t.equal(percent(0.1234), '12.3%')
    t.equal(axisDate('2026-03-01T10:00:05.123'), '2026-03-01 10:00:05')
    t.equal(axisDate(undefined), '')
  },
)

t.test('a change above 0.10 from a run of other rows is marked as such, not as drift', async (t) => {
  const entries = [
    entry('r1', { yes: 0.2, no: 0.8 }, null),
    entry('r2', { yes: 0.5, no: 0.5 }, 0.3, true),
    entry('r3', { yes: 0.9, no: 0.1 }, 0.4, true),
  ]
  const html = shareChart('is_spam', entries, ['yes', 'no'], {}, new Set(['r2'])).text
  t.match(
    html,
    /newest first; 1 with drift above 0\.10; 1 changed above 0\.10 from a run of other rows, which is not drift<\/figcaption>/,
  )
  t.match(
    html,
    /<span class="flag muted" title="change 0\.300 above 0\.10 from a run of other rows: not drift">other rows<\/span>/,
  )
  t.match(html, /aria-label="r2: yes 50\.0%, no 50\.0%; other rows 0\.300"/)
  t.equal(html.match(/>drift<\/span>/g)?.length, 1, 'only the like change is drift')
})
