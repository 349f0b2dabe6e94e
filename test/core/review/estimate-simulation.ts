import t from 'tap'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import type { KeyRow } from '../../../src/core/review/verdicts.ts'
import type { Card } from '../../../src/core/review/queue.ts'
import {
  firstOfShuffle,
  generator,
  oracleWidth,
  population,
  runAudit,
  type Population,
  type Reviewer,
  type Shape,
} from '../../helpers/audit-simulation.ts'

// The Done-when of the sampling-aware estimate: synthetic populations with known true accuracy,
// several sizes, accuracies and reviewer behaviours, each audited AUDITS times through the real
// queue builder and estimator. At full size (2,000 audits, coverage at least 93%) it runs in
// `npm run test:slow`, which sets JUDGE_SLOW=1; `npm test` runs 300 audits of each, where a 95%
// interval's coverage is known to within about ±2.5 points, and asks for at least 91%. Run it
// alone to see the figures docs/review.md quotes:
//   JUDGE_SLOW=1 node test/core/review/estimate-simulation.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const AUDITS = SLOW ? 2000 : 300
const MIN_COVERAGE = SLOW ? 0.93 : 0.91
const SEED = 20260301

const yaml = (keySample: string) => `name: sim
state: [message]
questions:
  is_spam: {ask: Is this spam?, type: yes_no}
  topic: {ask: What is it about?, labels: [personal, promotion, service]}
key_sample: ${keySample}
`
const chosenSpec = parseSpec(yaml('chosen'), '/sim/sim.judge.yaml')
const randomSpec = parseSpec(yaml('random'), '/sim/sim.judge.yaml')

const usual: Shape = { unsureShare: 0.15, accuracy: { confident: 0.95, unsure: 0.6 }, ambiguous: 0.02 }
const weak: Shape = { unsureShare: 0.3, accuracy: { confident: 0.8, unsure: 0.5 }, ambiguous: 0.05 }
const strong: Shape = { unsureShare: 0.1, accuracy: { confident: 0.99, unsure: 0.85 }, ambiguous: 0 }

const filtered = (name: string, reviews: number, takes: (card: Card, random: () => number) => boolean): Reviewer => ({
  name: `${name}, ${reviews} verdicts`,
  reviews,
  pick: (offered, random) => offered.filter((card) => takes(card, random)),
})
const inOrder = (reviews: number) => filtered('works down the queue', reviews, () => true)
const skipper = (reviews: number) => filtered('skips 10% of rows for good', reviews, (_, random) => random() >= 0.1)
const unsureOnly = (reviews: number) => filtered('reviews only unsure rows', reviews, (card) => card.kind === 'unsure')
const oneQuestion = (reviews: number) => filtered('filters to is_spam', reviews, (card) => card.question === 'is_spam')
const keyFirst = (reviews: number) => filtered('every disagreement, then the queue', reviews, () => true)
const shuffler = (reviews: number): Reviewer => ({
  name: `takes each page of 25 in a random order, ${reviews} verdicts`,
  reviews,
  pick: (offered, random) =>
    Array.from({ length: Math.ceil(offered.length / 25) }, (_, i) =>
      firstOfShuffle(offered.slice(25 * i, 25 * i + 25), 25, random),
    ).flat(),
})

/** A key of `size` rows: hard ones (the model wrong or unsure, as people pick them) or drawn at random. */
function keyOf(pop: Population, size: number, how: 'hard' | 'random', random: () => number): Map<string, KeyRow> {
  const rows = pop.rows.get('is_spam')!
  const pool = how === 'random' ? rows : rows.filter((r) => r.truth !== r.model || r.stratum === 'unsure')
  const picked = firstOfShuffle(pool, size, random)
  return new Map(
    picked.map((r): [string, KeyRow] => {
      const labels: Record<string, string> = {}
      for (const [question, list] of pop.rows) {
        const truth = list[Number.parseInt(r.answer.stateHash, 16)].truth
        if (truth !== null) labels[question] = truth
      }
      return [
        r.answer.stateHash,
        { stateHash: r.answer.stateHash, state: pop.states.get(r.answer.stateHash)!, labels, where: 'key.csv' },
      ]
    }),
  )
}

interface Config {
  readonly name: string
  readonly random?: boolean
  readonly size: number
  readonly shape: Shape
  readonly reviewer: Reviewer
  readonly audit: number
  readonly key?: { readonly size: number; readonly how: 'hard' | 'random' }
  /** The questions whose estimate the design supports; the others must say "not estimable". */
  readonly estimable: readonly string[]
  /** Whether the design supports an estimate in some audits only (rows skipped for good before a stratum's first). */
  readonly sometimes?: boolean
}

const CONFIGS: readonly Config[] = [
  { name: 'A', size: 500, shape: usual, reviewer: inOrder(100), audit: 30, estimable: ['is_spam', 'topic'] },
  { name: 'B', size: 5000, shape: usual, reviewer: inOrder(100), audit: 30, estimable: ['is_spam', 'topic'] },
  { name: 'C', size: 5000, shape: weak, reviewer: shuffler(100), audit: 30, estimable: ['is_spam', 'topic'] },
  { name: 'D', size: 500, shape: strong, reviewer: inOrder(80), audit: 30, estimable: ['is_spam', 'topic'] },
  { name: 'E', size: 300, shape: usual, reviewer: inOrder(24), audit: 8, estimable: ['is_spam', 'topic'] },
  { name: 'F', size: 5000, shape: usual, reviewer: oneQuestion(50), audit: 30, estimable: ['is_spam'] },
  { name: 'G', size: 5000, shape: usual, reviewer: unsureOnly(40), audit: 30, estimable: [] },
  {
    name: 'H',
    size: 2000,
    shape: weak,
    reviewer: keyFirst(150),
    audit: 30,
    key: { size: 60, how: 'hard' },
    estimable: ['is_spam', 'topic'],
  },
  {
    name: 'I',
    size: 2000,
    shape: usual,
    reviewer: keyFirst(40),
    audit: 30,
    key: { size: 150, how: 'random' },
    random: true,
    estimable: ['is_spam', 'topic'],
  },
  {
    name: 'J',
    size: 5000,
    shape: weak,
    reviewer: skipper(100),
    audit: 30,
    estimable: ['is_spam', 'topic'],
    sometimes: true,
  },
]

interface Figures {
  truth: number
  coverage: number
  width: number
  oracle: number
  counted: number
  naiveBias: number
  estimable: number
  needed: number
}

function simulate(config: Config): Map<string, Figures> {
  const random = generator(SEED + config.name.charCodeAt(0))
  const pop = population(config.random ? randomSpec : chosenSpec, config.size, config.shape, random)
  const keySize = config.key?.size ?? 0
  const labelled = new Map([...pop.rows].map(([q, rows]) => [q, rows.filter((r) => r.truth !== null)]))
  // Enough of each stratum for every verdict the reviewer may give, a page to skip or shuffle over, and the estimate's look past them.
  const window = Math.max(config.audit, config.reviewer.reviews) + keySize + 30
  const sums = new Map(
    pop.spec.questions.map((q) => [
      q.name,
      { covered: 0, width: 0, oracle: 0, counted: 0, naive: 0, naiveN: 0, estimable: 0, needed: 0 },
    ]),
  )
  for (let i = 0; i < AUDITS; i++) {
    // Each audit draws its own key, as each real project has its own.
    const key = config.key ? keyOf(pop, config.key.size, config.key.how, random) : new Map<string, KeyRow>()
    const outcome = runAudit(pop, { key, audit: config.audit, reviewer: config.reviewer, window }, random)
    for (const [question, estimate] of outcome.estimates) {
      const sum = sums.get(question)!
      const truth = pop.truth.get(question)!
      if (estimate.naive.accuracy !== null) {
        sum.naive += estimate.naive.accuracy - truth
        sum.naiveN += 1
      }
      sum.needed += estimate.needed
      if (!estimate.estimable) continue
      const [low, high] = estimate.interval!
      sum.estimable += 1
      if (low <= truth && truth <= high) sum.covered += 1
      sum.width += high - low
      sum.counted += outcome.counted.get(question)!
      sum.oracle += oracleWidth(labelled.get(question)!, outcome.counted.get(question)!, random)
    }
  }
  return new Map(
    [...sums].map(([q, s]) => [
      q,
      {
        truth: pop.truth.get(q)!,
        coverage: s.covered / Math.max(1, s.estimable),
        width: s.width / Math.max(1, s.estimable),
        oracle: s.oracle / Math.max(1, s.estimable),
        counted: s.counted / Math.max(1, s.estimable),
        naiveBias: s.naiveN === 0 ? NaN : s.naive / s.naiveN,
        estimable: s.estimable / AUDITS,
        needed: s.needed / AUDITS,
      },
    ]),
  )
}

const pct = (x: number) => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(1)}%`)
const signed = (x: number) => (Number.isNaN(x) ? '-' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`)

const rows: string[] = [
  '| config | rows | reviewer | question | true accuracy | estimable | coverage | mean width | oracle width | ratio | rows counted | naive bias (points) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
]
for (const config of CONFIGS) {
  const figures = simulate(config)
  const who = `${config.reviewer.name}${config.key ? `; a ${config.key.how === 'hard' ? 'hand-picked' : 'random'} key of ${config.key.size}` : ''}`
  for (const [question, f] of figures) {
    const shown = f.estimable > 0
    rows.push(
      `| ${config.name} | ${config.size} | ${who} | ${question} | ${pct(f.truth)} | ${pct(f.estimable)} | ${shown ? pct(f.coverage) : '-'} | ${shown ? pct(f.width) : '-'} | ${shown ? pct(f.oracle) : '-'} | ${shown ? (f.width / f.oracle).toFixed(2) : '-'} | ${shown ? f.counted.toFixed(1) : '-'} | ${signed(f.naiveBias)} |`,
    )
  }
  t.test(`config ${config.name}: ${config.size} rows, ${who}`, async (t) => {
    for (const [question, f] of figures) {
      const ratio = f.width / f.oracle
      if (config.estimable.includes(question)) {
        if (config.sometimes) t.ok(f.estimable > 0.5, `${question}: estimable in ${pct(f.estimable)} of audits`)
        else t.equal(f.estimable, 1, `${question}: estimable in every audit`)
        t.ok(
          f.coverage >= MIN_COVERAGE,
          `${question}: the 95% interval covers the truth in ${pct(f.coverage)} of the audits it is estimable in`,
        )
        t.ok(
          ratio <= 2,
          `${question}: mean width ${pct(f.width)} is ${ratio.toFixed(2)} times the oracle's ${pct(f.oracle)}`,
        )
      } else {
        t.equal(f.estimable, 0, `${question}: never estimable`)
      }
      if (f.estimable < 1)
        t.ok(
          f.needed >= 1 - f.estimable,
          `${question}: not estimable says how many reviews it needs (${f.needed.toFixed(2)} on average)`,
        )
    }
  })
}
t.comment(`${AUDITS} audits per configuration, seed ${SEED}\n${rows.join('\n')}`)
