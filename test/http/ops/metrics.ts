import t from 'tap'
import { family, mergeSnapshots, renderMetrics } from '../../../src/http/ops/metrics.ts'
import { NO_PROMTOOL, promtoolCheck } from '../../helpers/metrics.ts'

t.test('counters, gauges and histograms render in the text format, label values escaped', async (t) => {
  const c = family({ name: 'x_total', help: 'A count.\nTwo lines \\ here.', type: 'counter', labels: ['a', 'b'] })
  c.add(['1', 'say "hi"\\\n'])
  c.add(['1', 'say "hi"\\\n'], 2)
  const g = family({ name: 'g', help: 'A gauge.', type: 'gauge', labels: [] })
  g.set([], Infinity)
  const h = family({ name: 'h_seconds', help: 'Times.', type: 'histogram', labels: ['route'], buckets: [0.1, 1] })
  h.observe(['/x'], 0.05)
  h.observe(['/x'], 0.5)
  h.observe(['/x'], 5)
  const text = renderMetrics([c.snapshot(), g.snapshot(), h.snapshot()])
  t.equal(
    text,
    [
      '# HELP x_total A count.\\nTwo lines \\\\ here.',
      '# TYPE x_total counter',
      'x_total{a="1",b="say \\"hi\\"\\\\\\n"} 3',
      '# HELP g A gauge.',
      '# TYPE g gauge',
      'g +Inf',
      '# HELP h_seconds Times.',
      '# TYPE h_seconds histogram',
      'h_seconds_bucket{route="/x",le="0.1"} 1',
      'h_seconds_bucket{route="/x",le="1"} 2',
      'h_seconds_bucket{route="/x",le="+Inf"} 3',
      'h_seconds_sum{route="/x"} 5.55',
      'h_seconds_count{route="/x"} 3',
      '',
    ].join('\n'),
  )
  t.equal(promtoolCheck(text), '', 'promtool passes it', { skip: NO_PROMTOOL })
  g.set([], NaN)
  t.match(renderMetrics([g.snapshot()]), /\ng NaN\n/)
  g.set([], -Infinity)
  t.match(renderMetrics([g.snapshot()]), /\ng -Inf\n/)
})

t.test(
  'snapshots of several processes merge: counters and histograms summed, gauges as their shape says',
  async (t) => {
    const make = (n: number) => {
      const c = family({ name: 'c_total', help: 'c', type: 'counter', labels: ['k'] })
      c.add(['a'], n)
      c.add([`only${n}`])
      const h = family({ name: 'h', help: 'h', type: 'histogram', labels: [], buckets: [1] })
      h.observe([], n)
      const sum = family({ name: 's', help: 's', type: 'gauge', labels: [] })
      const max = family({ name: 'm', help: 'm', type: 'gauge', labels: [], merge: 'max' })
      const min = family({ name: 'n', help: 'n', type: 'gauge', labels: [], merge: 'min' })
      for (const f of [sum, max, min]) f.set([], n)
      return [c.snapshot(), h.snapshot(), sum.snapshot(), max.snapshot(), min.snapshot()]
    }
    const one = make(1)
    const merged = renderMetrics(mergeSnapshots([one, make(2)]))
    t.match(merged, /c_total\{k="a"\} 3\n/)
    t.match(merged, /c_total\{k="only1"\} 1\nc_total\{k="only2"\} 1\n/)
    t.match(merged, /h_bucket\{le="1"\} 1\nh_bucket\{le="\+Inf"\} 2\nh_sum 3\nh_count 2\n/)
    t.match(merged, /\ns 3\n/)
    t.match(merged, /\nm 2\n/)
    t.match(merged, /\nn 1\n/)
    t.match(renderMetrics(one), /c_total\{k="a"\} 1\n/, 'merging leaves the snapshots as they were')
  },
)
