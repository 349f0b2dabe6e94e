import { readDistribution } from '../../src/core/judge/answer.ts'
import { seededRandom } from '../../src/core/stats/seeded-random.ts'
import { scoreQuestion } from '../../src/core/review/accuracy.ts'
import { wilsonInterval } from '../../src/core/stats/wilson.ts'
import { questionSample, knownHashes, knownRows, rowsToRead } from '../../src/core/review/sample-design.ts'
import { estimateAccuracy, type AccuracyEstimate } from '../../src/core/review/estimate.ts'
import {
  buildQueue,
  type Card,
  type Queue,
  type QuestionAnswers,
  type StratumRows,
} from '../../src/core/review/queue.ts'
import { checkVerdict } from '../../src/core/review/verdict-check.ts'
import { STRATA, stratumOf, type StrataRead, type Stratum } from '../../src/core/review/strata.ts'
import { MIN_COUNTED } from '../../src/core/review/stratum-sample.ts'
import { verdictKey, type KeyRow, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Distribution, Question, Spec, State } from '../../src/core/types.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'

// A simulated audit: a synthetic population whose every true label is known, a review queue built
// by the real builder over a fresh random rank order, a reviewer who works through it in some way,
// and the real estimator. Repeated with one seeded generator, it measures how often the interval
// covers the truth.

/** A seeded generator of uniform numbers in [0, 1). */
export const generator = seededRandom

/**
 * How a synthetic question's answers are made: the unsure share, the share of a jury's answers some juror dissented
 * from (`splitShare`, none when absent: one model's answers), and the model's accuracy per stratum.
 */
export interface Shape {
  readonly unsureShare: number
  readonly splitShare?: number
  /** Accuracy per stratum; a split row without its own is right as often as its margin's stratum. */
  readonly accuracy: StrataRead<number>
  /** Share of rows a reviewer calls ambiguous. */
  readonly ambiguous: number
}

/** One row of a synthetic question: its answer and its true label (null: ambiguous). */
export interface SimRow {
  readonly answer: StoredAnswer
  readonly stratum: Stratum
  readonly model: string
  readonly truth: string | null
}

/** A synthetic population: per question, its rows by stratum; the states; the true accuracy. */
export interface Population {
  readonly spec: Spec
  readonly rows: ReadonlyMap<string, readonly SimRow[]>
  readonly byStratum: ReadonlyMap<string, Readonly<Record<Stratum, readonly SimRow[]>>>
  readonly states: ReadonlyMap<string, State>
  readonly truth: ReadonlyMap<string, number>
}

const round2 = (x: number) => Math.round(x * 100) / 100

function distributionOf(question: Question, unsure: boolean, random: () => number): Distribution {
  const [a, b, c] = question.labels
  if (question.type === 'yes_no') {
    const p = unsure ? 0.5 + Math.floor(random() * 10) / 100 : 0.6 + Math.floor(random() * 40) / 100
    return random() < 0.5 ? { [a]: round2(p), [b]: round2(1 - p) } : { [a]: round2(1 - p), [b]: round2(p) }
  }
  const top = unsure ? 0.4 + Math.floor(random() * 10) / 100 : 0.6 + Math.floor(random() * 40) / 100
  const second = unsure ? round2(top - Math.floor(random() * 19) / 100) : round2((1 - top) * 0.7)
  const order = [a, b, c].sort(() => random() - 0.5)
  return { [order[0]]: round2(top), [order[1]]: second, [order[2]]: round2(1 - top - second) }
}

/** Builds a population of `size` rows answering every question of `spec` as `shape` says. */
export function population(spec: Spec, size: number, shape: Shape, random: () => number): Population {
  const states = new Map<string, State>()
  for (let i = 0; i < size; i++) states.set(i.toString(16).padStart(16, '0'), { message: `row ${i}` })
  const rows = new Map<string, SimRow[]>()
  const truth = new Map<string, number>()
  for (const question of spec.questions) {
    const list: SimRow[] = [...states.keys()].map((stateHash) => {
      const distribution = distributionOf(question, random() < shape.unsureShare, random)
      const reading = readDistribution(question, distribution)
      // Drawn only for a jury's population, so that one model's draws are those they always were.
      const dissent = (shape.splitShare ?? 0) > 0 && random() < shape.splitShare! ? 1 : null
      const stratum = stratumOf({ margin: reading.margin, dissent }, spec.unsureBelow)
      const accuracy = shape.accuracy[stratum] ?? shape.accuracy[stratumOf(reading, spec.unsureBelow) as 'unsure']
      const answer: StoredAnswer = {
        model: 'm',
        fingerprint: question.fingerprint,
        stateHash,
        judgment: spec.name,
        question: question.name,
        distribution,
        ...reading,
        askedAt: '2026-01-01T00:00:00.000',
        ...(dissent === null ? {} : { dissent }),
      }
      const wrong = question.labels.filter((l) => l !== reading.label)
      const label = random() < accuracy ? reading.label : wrong[Math.floor(random() * wrong.length)]
      return { answer, stratum, model: reading.label, truth: random() < shape.ambiguous ? null : label }
    })
    rows.set(question.name, list)
    const labelled = list.filter((r) => r.truth !== null)
    truth.set(question.name, labelled.filter((r) => r.truth === r.model).length / labelled.length)
  }
  const byStratum = new Map(
    [...rows].map(([q, list]) => [
      q,
      Object.fromEntries(STRATA.map((s) => [s, list.filter((r) => r.stratum === s)])) as Record<Stratum, SimRow[]>,
    ]),
  )
  return { spec, rows, byStratum, states, truth }
}

/** The first `count` items of a fresh random order of `items` (a partial Fisher–Yates shuffle). */
export function firstOfShuffle<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items]
  const n = Math.min(count, copy.length)
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy.slice(0, n)
}

/** Which cards a reviewer gives a verdict on, in which order, and when they stop. */
export interface Reviewer {
  readonly name: string
  /** The cards this reviewer would review, in the order they would; `random` for those who skip or shuffle. */
  pick(offered: readonly Card[], random: () => number): readonly Card[]
  /** Verdicts given before stopping. */
  readonly reviews: number
}

/** One simulated audit of every question, as the estimator and the pooled figure see it. */
export interface AuditOutcome {
  readonly estimates: ReadonlyMap<string, AccuracyEstimate>
  /** Rows each question's estimate counted. */
  readonly counted: ReadonlyMap<string, number>
}

/** What one audit starts from besides the population: the key, how it was picked, the queue's spot-check size. */
export interface AuditSetup {
  readonly key: ReadonlyMap<string, KeyRow>
  readonly audit: number
  readonly reviewer: Reviewer
  /** Rows read of each stratum's rank order: enough for every review the reviewer may give. */
  readonly window: number
}

/** Runs one audit: a fresh rank order per question and stratum, the queue, the reviewer, the estimates. */
export function runAudit(pop: Population, setup: AuditSetup, random: () => number): AuditOutcome {
  const { spec } = pop
  const ranked = new Map(
    spec.questions.map((q) => [
      q.name,
      Object.fromEntries(
        STRATA.map((s) => {
          const rows = pop.byStratum.get(q.name)![s]
          return [s, firstOfShuffle(rows, setup.window, random)]
        }),
      ) as Record<Stratum, SimRow[]>,
    ]),
  )
  const answers: AuditedAnswers[] = spec.questions.map((question) => ({
    question,
    keyed: [...setup.key.keys()].map((h) => rowOf(pop, question.name, h).answer),
    strata: Object.fromEntries(
      STRATA.map((s) => [
        s,
        { size: pop.byStratum.get(question.name)![s].length, rows: ranked.get(question.name)![s].map((r) => r.answer) },
      ]),
    ) as unknown as Record<Stratum, StratumRows>,
  }))
  const queue = buildQueue({
    spec,
    answers,
    key: setup.key,
    verdicts: new Map(),
    states: pop.states,
    spotChecks: setup.audit,
    limit: Infinity,
  })
  const verdicts = review(pop, queue, setup.reviewer, random)
  return estimate(pop, setup, answers, verdicts)
}

/** A question's answers as the queue reads them, with each stratum's size, which the estimate needs too. */
interface AuditedAnswers extends QuestionAnswers {
  readonly strata: Readonly<Record<Stratum, StratumRows>>
}

const rowIndex = (stateHash: string) => Number.parseInt(stateHash, 16)
const rowOf = (pop: Population, question: string, stateHash: string) => pop.rows.get(question)![rowIndex(stateHash)]

function review(pop: Population, queue: Queue, reviewer: Reviewer, random: () => number): Map<string, VerdictRecord> {
  const verdicts = new Map<string, VerdictRecord>()
  for (const card of reviewer.pick(queue.offered, random)) {
    if (verdicts.size >= reviewer.reviews) break
    const truth = rowOf(pop, card.question, card.stateHash).truth
    const record = checkVerdict(queue, {
      question: card.question,
      stateHash: card.stateHash,
      kind: card.kind,
      ...verdictFor(card, truth),
      reviewer: 'sim',
      reviewedAt: '2026-01-01T00:00:00.000',
    })
    verdicts.set(verdictKey(card.judgment, card.question, card.stateHash), record)
  }
  return verdicts
}

function verdictFor(card: Card, truth: string | null): { verdict: string; label?: string } {
  if (truth === null) return { verdict: 'ambiguous' }
  if (card.kind === 'disagreement')
    return truth === card.modelLabel
      ? { verdict: 'model_right' }
      : truth === card.keyLabel
        ? { verdict: 'key_right' }
        : { verdict: 'labeled', label: truth }
  return truth === (card.keyLabel ?? card.modelLabel) ? { verdict: 'confirmed' } : { verdict: 'labeled', label: truth }
}

function estimate(
  pop: Population,
  setup: AuditSetup,
  answers: readonly AuditedAnswers[],
  verdicts: Map<string, VerdictRecord>,
): AuditOutcome {
  const { spec } = pop
  const estimates = new Map<string, AccuracyEstimate>()
  const counted = new Map<string, number>()
  for (const qa of answers) {
    const { question } = qa
    const base = { judgment: spec.name, question, key: setup.key, randomKey: spec.keySample === 'random', verdicts }
    const stored = new Map(knownHashes(base).map((h) => [h, rowOf(pop, question.name, h).answer]))
    const known = knownRows({ ...base, answers: stored })
    const read = rowsToRead(known, spec.unsureBelow, MIN_COUNTED)
    if (STRATA.some((s) => read[s] > setup.window && qa.strata[s].rows.length < qa.strata[s].size))
      throw new Error('the simulation read too few rows of a stratum')
    const audit = questionSample({ question, unsureBelow: spec.unsureBelow, strata: qa.strata, known })
    const scored = [
      ...new Set([
        ...setup.key.keys(),
        ...[...verdicts.values()].filter((v) => v.question === question.name).map((v) => v.state_hash),
      ]),
    ]
    const current = new Map(scored.map((h) => [h, rowOf(pop, question.name, h).model]))
    const naive = scoreQuestion({ judgment: spec.name, question, key: setup.key, verdicts, current })
    const result = estimateAccuracy(audit, naive)
    estimates.set(question.name, result)
    counted.set(
      question.name,
      result.strata.reduce((n, s) => n + s.counted, 0),
    )
  }
  return { estimates, counted }
}

/** The width of a Wilson interval from a simple random sample of `n` of the labelled rows of a question (the oracle). */
export function oracleWidth(labelled: readonly SimRow[], n: number, random: () => number): number {
  const sample = firstOfShuffle(labelled, n, random)
  const correct = sample.filter((r) => r.truth === r.model).length
  const interval = wilsonInterval(correct, sample.length)
  return interval === null ? 1 : interval[1] - interval[0]
}
