import t from 'tap'
import { reliabilityPlot } from '../../../src/http/pages/reliability-plot.ts'
import type { Calibration, ReliabilityBin } from '../../../src/core/review/calibration.ts'

const bin = (i: number, more: Partial<ReliabilityBin> = {}): ReliabilityBin => ({
  low: i / 10,
  high: (i + 1) / 10,
  answers: 0,
  share: 0,
  confidence: null,
  sampled: 0,
  accuracy: null,
  interval: null,
  ...more,
})

t.test(
  'each bin with a sample is a dot with its interval, titled for screen readers; the diagonal is perfect calibration',
  async (t) => {
    const c: Calibration = {
      bins: [
        bin(5, { answers: 40, share: 0.4, confidence: 0.55, sampled: 10, accuracy: 0.5, interval: [0.3, 0.7] }),
        bin(9, { answers: 60, share: 0.6, confidence: 0.95, sampled: 20, accuracy: 1, interval: null }),
        bin(0),
      ],
      ece: 0.04,
      covered: 1,
    }
    const svg = reliabilityPlot('is_<b>', c).text
    t.match(
      svg,
      /^<svg class="chart reliability" viewBox="0 0 280 280" width="280" role="img" aria-label="Reliability of is_&lt;b&gt;: accuracy against confidence in 2 bins; expected calibration error 4\.0%"/,
    )
    t.equal(svg.match(/<circle /g)?.length, 2)
    t.match(
      svg,
      /<title>confidence 50\.0% to 60\.0%: 40 answers, 10 reviewed, accuracy 50\.0% \(30\.0% to 70\.0%\)<\/title>/,
    )
    t.match(svg, /stroke-dasharray="4 4"/)
    t.notMatch(svg, /<script|style=/)
  },
)

t.test('with nothing reviewed the plot says so', async (t) => {
  t.match(
    reliabilityPlot('q', { bins: [bin(0)], ece: null, covered: 0 }).text,
    /aria-label="Reliability of q: no reviewed rows to plot yet"/,
  )
})
