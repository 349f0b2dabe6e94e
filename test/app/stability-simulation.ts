import t from 'tap'
import { checkStability } from '../../src/app/stability.ts'
import { readDistribution } from '../../src/core/judge/answer.ts'
import { seededRandom } from '../../src/core/stats/seeded-random.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import type { Estimate } from '../../src/core/stability/figures.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { hashOf } from '../helpers/spam-answers.ts'

// The Done-when of `judge stability` at the use case: populations whose engine flips a known share
// of states with a known probability, each judged once (the stored answers, themselves noisy) and
// checked with the real sample, re-ask and estimator. The true flip rate of a population is
// (unsteady states / N) · 2f(1 − f), its true p jitter the mean over unsteady states of
// 2f(1 − f) · margin. At full size (400 checks of each shape, coverage at least 93%) it runs in
// `npm run test:slow` (JUDGE_SLOW=1); `npm test` runs 30 of each, seeded, and asks for 90%.
//   JUDGE_SLOW=1 node test/app/stability-simulation.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const CHECKS = SLOW ? 400 : 30
const MIN_COVERAGE = SLOW ? 0.93 : 0.9
const N = 1000
const SAMPLE = 200

const SPEC = parseSpec(
  `name: sim
model: m
state: [message]
questions:
  is_spam: {ask: Is this spam?, type: yes_no}
act:
  is_spam:
    - route: block
      when: {label: yes, p: ">= 0.9"}
    - route: deliver
`,
  '/sim/sim.judge.yaml',
)

/** A population's shape: the share of unsure states, the share of each stratum's states that are unsteady, and the flip probability. */
interface Shape {
  readonly name: string
  readonly unsure: number
  readonly unsteady: { readonly unsure: number; readonly confident: number }
  readonly flip: number
}

const SHAPES: readonly Shape[] = [
  { name: 'a fifth of states unsteady, flip 0.3', unsure: 0.2, unsteady: { unsure: 0.2, confident: 0.2 }, flip: 0.3 },
  {
    name: 'noise in the unsure rows: 60% of them unsteady, 2% of confident ones, flip 0.25',
    unsure: 0.15,
    unsteady: { unsure: 0.6, confident: 0.02 },
    flip: 0.25,
  },
  {
    name: 'rare noise: 3% of states unsteady, flip 0.1',
    unsure: 0.2,
    unsteady: { unsure: 0.03, confident: 0.03 },
    flip: 0.1,
  },
]

interface Outcome {
  readonly flip: Estimate
  readonly jitter: Estimate
  readonly truth: { readonly flip: number; readonly jitter: number }
}

/** One population judged once and checked once; `seed` makes it, and the engine's noise, the same every time. */
async function check(shape: Shape, seed: number): Promise<Outcome> {
  const random = seededRandom(seed)
  const base = new Map<string, number>()
  const unsteady = new Set<string>()
  let flipTruth = 0
  let jitterTruth = 0
  const both = 2 * shape.flip * (1 - shape.flip)
  for (let i = 0; i < N; i++) {
    const message = `s${seed}-${i}`
    const unsure = random() < shape.unsure
    // p(yes) away from 0.5, so that a flip always changes the label: unsure margins below 0.2, confident from 0.2.
    const margin = unsure ? 0.02 * (1 + Math.floor(random() * 9)) : 0.2 + 0.01 * Math.floor(random() * 81)
    const yes = Math.round((random() < 0.5 ? (1 + margin) / 2 : (1 - margin) / 2) * 100) / 100
    base.set(JSON.stringify({ message }), yes)
    if (random() < shape.unsteady[unsure ? 'unsure' : 'confident']) {
      unsteady.add(JSON.stringify({ message }))
      flipTruth += both / N
      jitterTruth += (both * Math.abs(2 * yes - 1)) / N
    }
  }
  const noise = seededRandom(seed ^ 0x5eed)
  const engine = createFakeEngine({
    answer: (_q, state) => {
      const key = JSON.stringify(state)
      const yes =
        unsteady.has(key) && noise() < shape.flip ? Math.round((1 - base.get(key)!) * 100) / 100 : base.get(key)!
      return { yes, no: Math.round((1 - yes) * 100) / 100 }
    },
  })
  const store = createMemoryStore()
  const question = SPEC.questions[0]
  for (const key of base.keys()) {
    const state = JSON.parse(key) as { message: string }
    const { distributions } = await engine.ask({ model: 'm', state, questions: [question] })
    const { label, p, margin } = readDistribution(question, distributions.is_spam)
    store.putAnswers(
      [
        {
          model: 'm',
          fingerprint: question.fingerprint,
          stateHash: hashOf(state.message),
          judgment: 'sim',
          question: 'is_spam',
          distribution: distributions.is_spam,
          label,
          p,
          margin,
          askedAt: '2026-01-01T00:00:00.000',
        },
      ],
      hashOf(state.message),
      state,
    )
  }
  const [result] = await checkStability(app(deps(engine, store)), {
    project: { path: '/sim', dir: '/sim', specs: [SPEC], selected: [SPEC] },
    sample: SAMPLE,
    cap: 1,
  })
  const figures = result.questions.is_spam!
  return { flip: figures.flip_rate!, jitter: figures.p_jitter!, truth: { flip: flipTruth, jitter: jitterTruth } }
}

const covers = (e: Estimate, truth: number) => e.interval[0] <= truth && truth <= e.interval[1]

for (const [s, shape] of SHAPES.entries()) {
  t.test(
    `${shape.name}: the flip rate's 95% interval covers the true rate in at least ${MIN_COVERAGE * 100}% of ${CHECKS} checks`,
    async (t) => {
      const outcomes: Outcome[] = []
      for (let i = 0; i < CHECKS; i++) outcomes.push(await check(shape, 1000 * (s + 1) + i))
      const share = (pick: (o: Outcome) => boolean) => outcomes.filter(pick).length / outcomes.length
      const flipCoverage = share((o) => covers(o.flip, o.truth.flip))
      const jitterCoverage = share((o) => covers(o.jitter, o.truth.jitter))
      const mean = (pick: (o: Outcome) => number) => outcomes.reduce((a, o) => a + pick(o), 0) / outcomes.length
      t.comment(
        `${shape.name}: true flip rate ${mean((o) => o.truth.flip).toFixed(4)}, estimated ${mean((o) => o.flip.point).toFixed(4)}, ` +
          `coverage ${(100 * flipCoverage).toFixed(1)}%, mean width ${mean((o) => o.flip.interval[1] - o.flip.interval[0]).toFixed(4)}; ` +
          `p jitter true ${mean((o) => o.truth.jitter).toFixed(4)}, coverage ${(100 * jitterCoverage).toFixed(1)}%`,
      )
      t.ok(flipCoverage >= MIN_COVERAGE, `flip rate covered in ${(100 * flipCoverage).toFixed(1)}% of checks`)
      t.ok(jitterCoverage >= MIN_COVERAGE, `p jitter covered in ${(100 * jitterCoverage).toFixed(1)}% of checks`)
    },
  )
}

t.test('a stable engine: every check reports a flip rate and a jitter of 0', async (t) => {
  for (let i = 0; i < (SLOW ? 50 : 5); i++) {
    const outcome = await check(
      { name: 'stable', unsure: 0.2, unsteady: { unsure: 0, confident: 0 }, flip: 0.3 },
      9000 + i,
    )
    t.equal(outcome.flip.point, 0)
    t.equal(outcome.jitter.point, 0)
  }
})
