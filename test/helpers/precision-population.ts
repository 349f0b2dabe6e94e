import type { QuestionSample } from '../../src/core/review/sample-design.ts'
import { seededRandom } from '../../src/core/stats/seeded-random.ts'
import { STRATA, stratumOf, type Stratum } from '../../src/core/review/strata.ts'
import type { SampledRow, StratumSample } from '../../src/core/review/stratum-sample.ts'
import type { AnswerCell } from '../../src/ports/answer-store.ts'
import { spec } from './specs.ts'

/** One answer of the synthetic yes/no question: its label, probability, margin and whether it is right. */
export interface PrecisionRow {
  readonly hash: string
  readonly label: 'yes' | 'no'
  readonly p: number
  readonly margin: number
  readonly correct: boolean
}

/**
 * The model's chance of being right at probability p: 80% below 0.9, 93% from 0.9, 99% from 0.95.
 * A route `label: yes, p: ">= t"` then has a precision known for every t.
 */
export function rightChance(p: number): number {
  return p >= 0.95 ? 0.99 : p >= 0.9 ? 0.93 : 0.8
}

/** `size` answers of is_spam, half yes, p spread over 0.50..0.99, right as `chance` (default rightChance) says. */
export function precisionPopulation(
  size: number,
  seed: number,
  chance: (p: number) => number = rightChance,
): PrecisionRow[] {
  const random = seededRandom(seed)
  return Array.from({ length: size }, (_, i) => {
    const p = Math.round((0.5 + Math.floor(random() * 50) / 100) * 100) / 100
    const label = random() < 0.5 ? 'yes' : 'no'
    return {
      hash: i.toString(16).padStart(16, '0'),
      label,
      p,
      margin: Math.round((2 * p - 1) * 100) / 100,
      correct: random() < chance(p),
    }
  })
}

/** The true precision of the rows labelled yes with p at least t. */
export function truePrecision(rows: readonly PrecisionRow[], t: number): number {
  const routed = rows.filter((r) => r.label === 'yes' && r.p >= t)
  return routed.filter((r) => r.correct).length / routed.length
}

/** The answers of a population counted by label, p and margin, as the store gives them. */
export function cellsOf(rows: readonly PrecisionRow[]): AnswerCell[] {
  const cells = new Map<string, AnswerCell>()
  for (const r of rows) {
    const id = `${r.label} ${r.p}`
    cells.set(id, { label: r.label, p: r.p, margin: r.margin, count: (cells.get(id)?.count ?? 0) + 1 })
  }
  return [...cells.values()]
}

/** An audit of the population: a simple random sample of `size` rows from each stratum. */
export function auditOfPopulation(
  rows: readonly PrecisionRow[],
  unsureBelow: number,
  size: number,
  seed: number,
): QuestionSample {
  const random = seededRandom(seed)
  const question = spec().questions[0]
  const strata = Object.fromEntries(
    STRATA.map((stratum): [Stratum, StratumSample] => {
      const members = rows.filter((r) => stratumOf(r, unsureBelow) === stratum)
      const picked = [...members].sort(() => random() - 0.5).slice(0, size)
      const sampled = picked.map((r): SampledRow => {
        const other = r.label === 'yes' ? 'no' : 'yes'
        return {
          stateHash: r.hash,
          stratum,
          label: r.label,
          p: r.p,
          margin: r.margin,
          truth: [r.correct ? r.label : other],
          correct: r.correct,
        }
      })
      return [
        stratum,
        {
          stratum,
          size: members.length,
          sampled: sampled.length,
          rows: sampled,
          needs_context: 0,
          ambiguous: 0,
          outside: 0,
          next: null,
          needed: 0,
        },
      ]
    }),
  ) as Record<Stratum, StratumSample>
  return { question, strata }
}
