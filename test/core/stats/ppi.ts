import t from 'tap'
import { ppiMean, type PpiStratum } from '../../../src/core/stats/ppi.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'
import { adjustedShare } from '../../../src/core/stats/adjustment.ts'
import { effectiveSizeInterval } from '../../../src/core/stats/effective-size.ts'

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const variance = (xs: readonly number[]) => xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1)

t.test('a model right on every sampled unit gives its own mean over all units, at λ = 1', async (t) => {
  const model = [1, 1, 0, 0, 0, 1, 0, 0, 0, 0]
  const r = ppiMean([{ weight: 1, fpc: 0.9, modelMean: 0.35, model, truth: model }])
  t.equal(r.lambda, 1)
  t.ok(Math.abs(r.point - 0.35) < 1e-15, 'the sample only corrects by zero')
  t.ok(r.variance > 0, 'the floor keeps a sample never wrong from claiming no uncertainty')
})

t.test('a model that tells nothing of the truth is left out: the sampled units alone, at λ = 0', async (t) => {
  const truth = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
  const model = [0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1]
  const r = ppiMean([{ weight: 1, fpc: 1, modelMean: 0.5, model, truth }])
  t.equal(r.lambda, 0)
  t.ok(Math.abs(r.point - mean(truth)) < 1e-15)
  t.ok(Math.abs(r.variance - variance(truth) / truth.length) < 1e-15, 'the variance of a simple mean')
})

t.test(
  'strata weigh by W_h, with W²(1 − f)/n on each variance; strata of no weight or no sample are left out',
  async (t) => {
    const a: PpiStratum = { weight: 0.75, fpc: 0.5, modelMean: 0.2, model: [0, 1, 0, 1], truth: [1, 0, 1, 0] }
    const b: PpiStratum = { weight: 0.25, fpc: 1, modelMean: 0.9, model: [1, 0, 1, 0], truth: [1, 1, 0, 0] }
    const r = ppiMean([a, b, { ...b, weight: 0 }, { ...a, model: [], truth: [] }])
    t.equal(r.lambda, 0, 'the model disagrees with the truth in the first stratum')
    t.ok(Math.abs(r.point - (0.75 * 0.5 + 0.25 * 0.5)) < 1e-15)
    const expected = (0.75 ** 2 * 0.5 * variance(a.truth)) / 4 + (0.25 ** 2 * variance(b.truth)) / 4
    t.ok(Math.abs(r.variance - expected) < 1e-15, `${r.variance} against ${expected}`)
    t.same(ppiMean([]), { point: 0, variance: 0, lambda: 0 }, 'nothing sampled, nothing estimated')
  },
)

t.test(
  "a good model narrows the variance, and Wilson's interval at the effective size covers at least 90% of the time with 80 reviews",
  async (t) => {
    // 10,000 units, the truth 1 for 30% of them; the model agrees with it on 90% of the units.
    const random = seededRandom(11)
    const truth = Array.from({ length: 10_000 }, () => (random() < 0.3 ? 1 : 0))
    const model = truth.map((y) => (random() < 0.9 ? y : 1 - y))
    const target = mean(truth)
    const modelMean = mean(model)
    let covered = 0
    let narrower = 0
    const runs = 1000
    for (let run = 0; run < runs; run++) {
      const picks = Array.from({ length: 80 }, () => Math.floor(random() * truth.length))
      const stratum = {
        weight: 1,
        fpc: 1 - 80 / truth.length,
        modelMean,
        model: picks.map((i) => model[i]),
        truth: picks.map((i) => truth[i]),
      }
      const r = ppiMean([stratum])
      // The interval as the label mix reads it (core/review/label-mix.ts).
      const [low, high] = effectiveSizeInterval(r.point, adjustedShare(r.point * 80, 80), r.variance).interval
      if (low <= target && target <= high) covered += 1
      // No model at all: a model that says 0 everywhere, so that only the sampled units speak.
      if (r.variance < ppiMean([{ ...stratum, modelMean: 0, model: stratum.truth.map(() => 0) }]).variance)
        narrower += 1
    }
    t.ok(covered / runs >= 0.9, `covers the true mean in ${covered} of ${runs}`)
    t.ok(narrower / runs >= 0.95, `narrower than the sampled units alone in ${narrower} of ${runs}`)
  },
)
