import type { AnswerCell } from '../../ports/answer-store.ts'
import { pNanosOf } from '../tally/cells.ts'
import { NANOS } from '../tally/grid.ts'
import { kishSize } from '../stats/effective-size.ts'
import { wilsonInterval } from '../stats/wilson.ts'
import type { WeightedRow } from './sample-design.ts'

/** One confidence bin of a reliability table. */
export interface ReliabilityBin {
  /** The bin's confidences: from `low` (inclusive) to `high` (exclusive; the last bin takes 1). */
  readonly low: number
  readonly high: number
  /** Answers of the question in the bin, and their share of all its answers. */
  readonly answers: number
  readonly share: number
  /** Mean confidence (the model's probability of its label) over the bin's answers. */
  readonly confidence: number | null
  /** Sampled rows in the bin with a true label. */
  readonly sampled: number
  /** Design-weighted share of the bin's sampled rows the model got right; null with none sampled. */
  readonly accuracy: number | null
  /** 95% Wilson interval of `accuracy` at the bin's effective sample size (Kish); null with none sampled. */
  readonly interval: readonly [number, number] | null
}

/** A question's calibration: how often the model is right against how sure it says it is. */
export interface Calibration {
  readonly bins: readonly ReliabilityBin[]
  /**
   * Expected calibration error: the mean of |accuracy − confidence| over the bins with a sample,
   * each weighed by its share of the answers; null when no bin has one.
   */
  readonly ece: number | null
  /** Share of the answers in bins with a sample: what the ECE speaks for. */
  readonly covered: number
}

/** Bins of the reliability table: ten of equal width. */
export const BINS = 10

const binOf = (p: number) => Math.min(BINS - 1, Math.floor(p * BINS))

/**
 * The reliability table of a question: its answers (from the store, all of them) binned by
 * confidence, and each bin's accuracy estimated from the sampled rows in it, each weighed by the
 * answers of its stratum it stands for, so that an unsure row reviewed for every twenty is not
 * counted like a confident row reviewed for every two hundred.
 */
export function calibration(cells: readonly AnswerCell[], rows: readonly WeightedRow[]): Calibration {
  const total = cells.reduce((n, c) => n + c.count, 0)
  const bins = Array.from({ length: BINS }, (_, i) => {
    const inBin = cells.filter((c) => binOf(c.p) === i)
    const answers = inBin.reduce((n, c) => n + c.count, 0)
    const sampled = rows.filter((r) => binOf(r.row.p) === i)
    return {
      low: i / BINS,
      high: (i + 1) / BINS,
      answers,
      share: total === 0 ? 0 : answers / total,
      // Summed in nanos, an integer: the same figure from the tally's cells as from every answer.
      confidence: answers === 0 ? null : inBin.reduce((s, c) => s + pNanosOf(c), 0) / NANOS / answers,
      sampled: sampled.length,
      ...weightedAccuracy(sampled),
    }
  })
  const scored = bins.filter((b) => b.accuracy !== null && b.confidence !== null)
  const covered = scored.reduce((s, b) => s + b.share, 0)
  const ece =
    covered === 0 ? null : scored.reduce((s, b) => s + b.share * Math.abs(b.accuracy! - b.confidence!), 0) / covered
  return { bins, ece, covered }
}

function weightedAccuracy(rows: readonly WeightedRow[]): Pick<ReliabilityBin, 'accuracy' | 'interval'> {
  if (rows.length === 0) return { accuracy: null, interval: null }
  const sum = rows.reduce((s, r) => s + r.weight, 0)
  const accuracy = rows.reduce((s, r) => s + (r.row.correct ? r.weight : 0), 0) / sum
  const effective = kishSize(rows.map((r) => r.weight))
  return { accuracy, interval: wilsonInterval(accuracy * effective, effective) }
}
