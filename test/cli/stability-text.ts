import t from 'tap'
import { noiseLines, questionLines, stabilityJson, stabilityReport } from '../../src/cli/stability-text.ts'
import type { JudgmentStability } from '../../src/app/stability.ts'
import type { QuestionStability } from '../../src/core/stability/figures.ts'

const FIGURES: QuestionStability = {
  checked_at: '2026-11-22T10:00:00.000',
  reported_model: 'jev-1.13.0',
  reasked: 200,
  strata: [
    { stratum: 'unsure', size: 150, reasked: 100, flips: 12, from_samples: 0 },
    { stratum: 'confident', size: 850, reasked: 100, flips: 1, from_samples: 0 },
  ],
  flip_rate: { point: 0.0265, interval: [0.012, 0.05] },
  p_jitter: { point: 0.0213, interval: [0.015, 0.03] },
  route_flip_rate: { point: 0.01, interval: [0.002, 0.03] },
  near_threshold: { thresholds: [0.9, 0.95], within: 0.0213, count: 37, share: 0.037, answers: 1000 },
  method: 'm',
}
const RESULT: JudgmentStability = {
  judgment: 'spam',
  model: 'jev-1',
  check: '2026-11-22T10:00:00.000',
  states: 180,
  skipped: 2,
  fromSamples: 0,
  requests: 180,
  cost: 0.0012,
  questions: { is_spam: FIGURES, topic: null },
}

t.test("the report gives per judgment what was asked, then each question's figures with their intervals", async (t) => {
  t.equal(
    stabilityReport([RESULT]),
    'spam: 180 states asked again in 180 requests, cost $0.0012, model jev-1; 2 states drawn had no values left in the store and were not asked\n' +
      '  is_spam: flip rate 2.6% (95% 1.2% to 5.0%); p jitter 0.021 (95% 0.015 to 0.030); 12 of 100 unsure flipped, 1 of 100 confident flipped\n' +
      '    route flips 1.0% (95% 0.2% to 3.0%)\n' +
      '    37 of 1000 stored answers (3.7%) have p within 0.021, the mean p jitter, of a p threshold (0.9, 0.95): noise of that size could move their route\n' +
      '  topic: no stored answers to ask again\n',
  )
})

t.test(
  'with no p jitter measured, the report says that no p moved rather than that the noise can move a route',
  async (t) => {
    const still = { ...FIGURES, near_threshold: { ...FIGURES.near_threshold!, within: 0, count: 0, share: 0 } }
    t.equal(
      questionLines('is_spam', still)[2],
      '    no p moved when asked again, so the noise carries no stored answer across a p threshold (0.9, 0.95)',
    )
  },
)

t.test('figures that cannot be estimated say so, and a question without act rules has no route lines', async (t) => {
  t.same(
    questionLines('q', { ...FIGURES, flip_rate: null, p_jitter: null, route_flip_rate: null, near_threshold: null }),
    ['  q: flip rate not estimable; p jitter not estimable; 12 of 100 unsure flipped, 1 of 100 confident flipped'],
  )
})

t.test('--json keys each judgment, with when it was checked and every figure', async (t) => {
  t.same(stabilityJson([RESULT]), {
    spam: {
      model: 'jev-1',
      checked_at: RESULT.check,
      states: 180,
      skipped: 2,
      from_samples: 0,
      requests: 180,
      cost: 0.0012,
      questions: RESULT.questions,
    },
  })
})

t.test("a run's summary names each question whose flip rate is above its error rate's interval", async (t) => {
  t.equal(noiseLines([]), '')
  t.equal(
    noiseLines([
      {
        judgment: 'spam',
        question: 'is_spam',
        checked_at: '2026-11-22T10:00:00.000',
        flip_rate: { point: 0.12, interval: [0.08, 0.17] },
        error: { point: 0.05, interval: [0.03, 0.08] },
      },
    ]),
    "spam.is_spam: labels flip on 12.0% (95% 8.0% to 17.0%) of answers asked again (judge stability, 2026-11-22T10:00:00.000), above the error rate's interval (3.0% to 8.0%): the engine's noise is the larger part of the error\n",
  )
})

t.test('answers read from their samples are said apart, in the header and per stratum', async (t) => {
  const sampled: QuestionStability = {
    ...FIGURES,
    strata: [
      { stratum: 'unsure', size: 150, reasked: 100, flips: 2, from_samples: 60 },
      { stratum: 'confident', size: 850, reasked: 100, flips: 0, from_samples: 100 },
    ],
  }
  const text = stabilityReport([{ ...RESULT, fromSamples: 160, questions: { is_spam: sampled } }])
  t.match(
    text,
    /; 160 answers of sampled p read from their samples, not asked \(1 - p is the chance a fresh draw names another label\)\n/,
  )
  t.match(
    text,
    /2 of 40 unsure asked again flipped, 60 read from their samples, 0 of 0 confident asked again flipped, 100 read from their samples/,
  )
})
