import t from 'tap'
import { standingReviews } from '../../../src/core/review/retraction.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import type { QuestionSample } from '../../../src/core/review/sample-design.ts'
import type { ReviewLine } from '../../../src/core/review/retraction.ts'
import { STRATA, type Stratum } from '../../../src/core/review/strata.ts'
import { sampleStratum, type KnownRow, type StratumSample } from '../../../src/core/review/stratum-sample.ts'
import type { Question } from '../../../src/core/types.ts'
import { modelAgreement } from '../../../src/core/agreement/model-agreement.ts'
import { peopleAgreement, reviewedPairs } from '../../../src/core/agreement/people.ts'
import { reviewerAgreement } from '../../../src/core/agreement/reviewers.ts'
import {
  firstOfShuffle,
  generator,
  population,
  type Population,
  type Shape,
  type SimRow,
} from '../../helpers/audit-simulation.ts'

// Synthetic populations whose every label is known: the model's, the truth, and what each
// simulated reviewer would say of each row (a reviewer errs on a row with a known rate, once and
// for good). Each configuration is audited AUDITS times: a simple random sample of each stratum
// (a prefix of a fresh rank order, read by the real sampleStratum) reviewed by the first
// reviewer, rows reviewed twice by two reviewers, and rows reviewed twice by pairs of three
// reviewers of whom one is careless. Set JUDGE_SLOW=1 for the full run whose figures
// docs/review.md quotes:
//   JUDGE_SLOW=1 node test/core/agreement/agreement-simulation.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const AUDITS = SLOW ? 1000 : 200
/** The least coverage of a 95% interval accepted: 93% over 1,000 audits; over 200, 90% (about three standard errors below 95%). */
const FLOOR = SLOW ? 0.93 : 0.9
const SEED = 20260420

const spec = parseSpec(
  `name: sim
state: [message]
questions:
  is_spam: {ask: Is this spam?, type: yes_no}
  topic: {ask: What is it about?, labels: [personal, promotion, service]}
`,
  '/sim/sim.judge.yaml',
)

const usual: Shape = { unsureShare: 0.15, accuracy: { split: 0, confident: 0.95, unsure: 0.6 }, ambiguous: 0.02 }
const weak: Shape = { unsureShare: 0.3, accuracy: { split: 0, confident: 0.8, unsure: 0.5 }, ambiguous: 0.05 }

interface Config {
  readonly name: string
  readonly size: number
  readonly shape: Shape
  /** Rows of each stratum's rank order reviewed. */
  readonly sample: Readonly<Record<Stratum, number>>
  /** Rows reviewed by both of two reviewers. */
  readonly twice: number
}

const CONFIGS: readonly Config[] = [
  { name: 'A', size: 500, shape: usual, sample: { split: 0, confident: 30, unsure: 20 }, twice: 100 },
  { name: 'B', size: 5000, shape: weak, sample: { split: 0, confident: 30, unsure: 40 }, twice: 150 },
  { name: 'C', size: 2000, shape: usual, sample: { split: 0, confident: 80, unsure: 40 }, twice: 300 },
]

/** Each reviewer's error rate: ann and bob review the sample and the rows reviewed twice; cal is careless. */
const ERRORS = { ann: 0.05, bob: 0.15, cal: 0.3 } as const
type Name = keyof typeof ERRORS
/** Error rates of the three reviewers when one of them is careless. */
const TRIO = { ann: 0.03, bob: 0.08, cal: 0.3 } as const
/** Rows reviewed twice by pairs of the trio. */
const TRIO_ROWS = 300

/** What a reviewer with error rate `error` says of each row: the truth, or another label at random; null for an ambiguous row. */
function readings(question: Question, rows: readonly SimRow[], error: number, random: () => number): (string | null)[] {
  return rows.map((r) => {
    if (r.truth === null || random() >= error) return r.truth
    const others = question.labels.filter((l) => l !== r.truth)
    return others[Math.floor(random() * others.length)]
  })
}

/** Cohen's κ and per-label precision, recall and F1 of `a` against `b` over the rows where both speak. */
function populationFigures(a: readonly string[], b: readonly string[], labels: readonly string[]) {
  const n = a.length
  const po = a.filter((x, i) => x === b[i]).length / n
  const share = (side: readonly string[], l: string) => side.filter((x) => x === l).length / n
  const pe = labels.reduce((s, l) => s + share(a, l) * share(b, l), 0)
  const both = (l: string) => a.filter((x, i) => x === l && b[i] === l).length
  const precision = Object.fromEntries(labels.map((l) => [l, both(l) / a.filter((x) => x === l).length]))
  const recall = Object.fromEntries(labels.map((l) => [l, both(l) / b.filter((x) => x === l).length]))
  const f1 = Object.fromEntries(
    labels.map((l) => [l, (2 * both(l)) / (a.filter((x) => x === l).length + b.filter((x) => x === l).length)]),
  )
  return { kappa: (po - pe) / (1 - pe), precision, recall, f1 }
}

const line = (question: string, stateHash: string, reviewer: string, label: string | null): ReviewLine => ({
  type: 'verdict',
  record: {
    reviewed_at: '2026-01-01T00:00:00.000',
    reviewer,
    judgment: 'sim',
    question,
    state_hash: stateHash,
    kind: 'spot_check',
    verdict: label === null ? 'ambiguous' : 'labeled',
    labels: label === null ? [] : [label],
    model_label: '',
    key_label: null,
    state: {},
    stratum: null,
    rank: null,
  },
})

/** An audit of one question: a prefix of a fresh rank order of each stratum, labelled by `says`. */
function sampleDesignOf(
  pop: Population,
  question: Question,
  config: Config,
  says: ReadonlyMap<string, string | null>,
  random: () => number,
): QuestionSample {
  const strata = Object.fromEntries(
    STRATA.map((stratum) => {
      const rows = pop.byStratum.get(question.name)![stratum]
      const ranked = firstOfShuffle(rows, config.sample[stratum] + 1, random).map((r) => r.answer)
      const known = new Map(
        ranked.slice(0, config.sample[stratum]).map((answer): [string, KnownRow] => {
          const label = says.get(answer.stateHash)!
          return [
            answer.stateHash,
            { answer, truth: label === null ? { excluded: 'ambiguous' } : { labels: [label] }, randomKey: false },
          ]
        }),
      )
      return [stratum, sampleStratum({ stratum, question, size: rows.length, ranked, known })]
    }),
  ) as Record<Stratum, StratumSample>
  return { question, strata }
}

interface Tally {
  covered: number
  seen: number
  width: number
}
const tally = (): Tally => ({ covered: 0, seen: 0, width: 0 })
function count(t: Tally, truth: number, interval: readonly [number, number] | null | undefined): void {
  if (!interval) return
  t.seen += 1
  t.width += interval[1] - interval[0]
  if (interval[0] <= truth + 1e-12 && truth <= interval[1] + 1e-12) t.covered += 1
}

interface Result {
  readonly truth: number
  readonly tally: Tally
}

function simulate(config: Config, question: Question) {
  const random = generator(SEED + config.name.charCodeAt(0) + question.name.length)
  const pop = population(spec, config.size, config.shape, random)
  const rows = pop.rows.get(question.name)!
  const said = Object.fromEntries(
    (Object.keys(ERRORS) as Name[]).map((n) => [n, readings(question, rows, ERRORS[n], random)]),
  ) as Record<Name, (string | null)[]>
  const trio = Object.fromEntries(
    (Object.keys(TRIO) as Name[]).map((n) => [n, readings(question, rows, TRIO[n], random)]),
  ) as Record<Name, (string | null)[]>
  const spoken = rows.map((_, i) => i).filter((i) => said.ann[i] !== null)
  const model = populationFigures(
    spoken.map((i) => rows[i].model),
    spoken.map((i) => said.ann[i]!),
    question.labels,
  )
  const people = populationFigures(
    spoken.map((i) => said.ann[i]!),
    spoken.map((i) => said.bob[i]!),
    question.labels,
  )
  const annSays = new Map(rows.map((r, i) => [r.answer.stateHash, said.ann[i]]))
  const figures = {
    modelKappa: tally(),
    peopleKappa: tally(),
    precision: new Map(question.labels.map((l) => [l, tally()])),
    recall: new Map(question.labels.map((l) => [l, tally()])),
    f1: new Map(question.labels.map((l) => [l, tally()])),
    calFlagged: 0,
    othersFlagged: 0,
  }
  for (let audit = 0; audit < AUDITS; audit++) {
    const agreement = modelAgreement(sampleDesignOf(pop, question, config, annSays, random))
    count(figures.modelKappa, model.kappa, agreement.kappa_interval)
    for (const l of question.labels) {
      count(figures.precision.get(l)!, model.precision[l], agreement.per_label[l].precision?.interval)
      count(figures.recall.get(l)!, model.recall[l], agreement.per_label[l].recall?.interval)
      count(figures.f1.get(l)!, model.f1[l], agreement.per_label[l].f1?.interval)
    }
    const twice = firstOfShuffle(
      rows.map((_, i) => i),
      config.twice,
      random,
    )
    const lines = twice.flatMap((i) => [
      line(question.name, rows[i].answer.stateHash, 'ann', said.ann[i]),
      line(question.name, rows[i].answer.stateHash, 'bob', said.bob[i]),
    ])
    count(
      figures.peopleKappa,
      people.kappa,
      peopleAgreement(reviewedPairs(standingReviews(lines), 'sim', question.name)).kappa_interval,
    )
    const trioLines = firstOfShuffle(
      rows.map((_, i) => i),
      TRIO_ROWS,
      random,
    ).flatMap((i) => {
      const [x, y] = firstOfShuffle(Object.keys(TRIO) as Name[], 2, random)
      return [
        line(question.name, rows[i].answer.stateHash, x, trio[x][i]),
        line(question.name, rows[i].answer.stateHash, y, trio[y][i]),
      ]
    })
    const flags = reviewerAgreement(reviewedPairs(standingReviews(trioLines), 'sim', question.name))
    if (flags.cal?.flagged) figures.calFlagged += 1
    if (flags.ann?.flagged || flags.bob?.flagged) figures.othersFlagged += 1
  }
  return { model, people, figures }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const coverage = (t: Tally) => t.covered / Math.max(1, t.seen)
const table: string[] = [
  '| config | rows | sampled (confident + unsure) | question | figure | true value | coverage | mean width | audits with a value |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
]
const flagRows: string[] = [
  '| config | question | careless reviewer flagged | a careful reviewer flagged |',
  '| --- | --- | --- | --- |',
]

for (const config of CONFIGS) {
  for (const question of spec.questions) {
    const { model, people, figures } = simulate(config, question)
    const results: [string, Result][] = [
      ['κ, model against reviewed', { truth: model.kappa, tally: figures.modelKappa }],
      [`κ between people (${config.twice} rows)`, { truth: people.kappa, tally: figures.peopleKappa }],
      ...question.labels.flatMap((l): [string, Result][] => [
        [`precision of ${l}`, { truth: model.precision[l], tally: figures.precision.get(l)! }],
        [`recall of ${l}`, { truth: model.recall[l], tally: figures.recall.get(l)! }],
        [`F1 of ${l}`, { truth: model.f1[l], tally: figures.f1.get(l)! }],
      ]),
    ]
    for (const [figure, r] of results) {
      table.push(
        `| ${config.name} | ${config.size} | ${config.sample.confident} + ${config.sample.unsure} | ${question.name} | ${figure} | ${r.truth.toFixed(3)} | ${pct(coverage(r.tally))} | ${(r.tally.width / Math.max(1, r.tally.seen)).toFixed(3)} | ${pct(r.tally.seen / AUDITS)} |`,
      )
    }
    flagRows.push(
      `| ${config.name} | ${question.name} | ${pct(figures.calFlagged / AUDITS)} | ${pct(figures.othersFlagged / AUDITS)} |`,
    )
    t.test(
      `config ${config.name}, ${question.name}: the 95% intervals cover the true values, and the careless reviewer is the one flagged`,
      async (t) => {
        for (const [figure, r] of results) {
          t.ok(r.tally.seen >= 0.9 * AUDITS, `${figure}: given in ${r.tally.seen} of ${AUDITS} audits`)
          t.ok(
            coverage(r.tally) >= FLOOR,
            `${figure}: covers ${r.truth.toFixed(3)} in ${pct(coverage(r.tally))} of the audits`,
          )
        }
        t.ok(
          figures.calFlagged >= 0.85 * AUDITS,
          `the careless reviewer is flagged in ${pct(figures.calFlagged / AUDITS)} of the audits`,
        )
        t.ok(
          figures.othersFlagged <= 0.01 * AUDITS,
          `a careful reviewer is flagged in ${pct(figures.othersFlagged / AUDITS)} of the audits`,
        )
      },
    )
  }
}
t.comment(
  `${AUDITS} audits per configuration, seed ${SEED}; reviewers err ${ERRORS.ann} (ann, whose verdicts are the reviewed labels) and ${ERRORS.bob} (bob); the trio ${TRIO.ann}, ${TRIO.bob} and ${TRIO.cal} (cal), ${TRIO_ROWS} rows reviewed by a random pair of them\n${table.join('\n')}\n\n${flagRows.join('\n')}`,
)
