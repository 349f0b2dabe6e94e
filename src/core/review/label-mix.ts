import type { AnswerCell } from '../../ports/answer-store.ts'
import type { QuestionAudit, WeightedRow } from './audit.ts'
import { weightedRows } from './audit.ts'
import { seededRandom } from './seeded-random.ts'
import { STRATA } from './strata.ts'

/** A question's label shares: as the model gives them, and corrected for its estimated confusion. */
export interface LabelMix {
  readonly labels: readonly string[]
  /** Share of the answers per label, as the model labels them (every answer in the store). */
  readonly raw: Readonly<Record<string, number>>
  /** Estimated true share per label with a 95% interval; null when the confusion cannot be estimated. */
  readonly corrected: Readonly<Record<string, { readonly share: number; readonly interval: readonly [number, number] }>> | null
  /** `rogan-gladen` for two labels, `confusion-inverse` for more. */
  readonly method: 'rogan-gladen' | 'confusion-inverse'
  /** Why there is no corrected mix, when there is none. */
  readonly reason: string | null
}

/** Bootstrap resamples of each stratum's rows behind the corrected mix's intervals. */
export const RESAMPLES = 400

/**
 * The label mix of a question. The raw mix q is exact (every answer is in the store). The model's
 * confusion M[j][i] = P(model says j | truth is i) is estimated from the audit, each row weighed by
 * its stratum; the true mix π solves M π = q: for two labels that is Rogan and Gladen's
 * (q + Sp − 1) / (Se + Sp − 1). Shares are clipped to 0..1 and scaled to sum to 1. The intervals
 * are percentiles of a bootstrap that resamples each stratum's rows apart, seeded, so they repeat.
 */
export function labelMix(labels: readonly string[], cells: readonly AnswerCell[], audit: QuestionAudit, seed = 1): LabelMix {
  const method = labels.length === 2 ? 'rogan-gladen' : 'confusion-inverse'
  const total = cells.reduce((n, c) => n + c.count, 0)
  const q = labels.map((l) => (total === 0 ? 0 : cells.filter((c) => c.label === l).reduce((n, c) => n + c.count, 0) / total))
  const raw = Object.fromEntries(labels.map((l, i) => [l, q[i]]))
  const missing = STRATA.filter((s) => audit.strata[s].size > 0 && audit.strata[s].rows.length === 0)
  if (total === 0 || missing.length > 0) return { labels, raw, corrected: null, method, reason: total === 0 ? 'no answers' : `no labelled sample in the ${missing.join(' and ')} stratum` }
  const point = solveMix(labels, q, weightedRows(audit))
  if (point === null) return { labels, raw, corrected: null, method, reason: 'the sample does not show every true label, so the confusion cannot be inverted' }
  const draws = bootstrap(labels, q, audit, seed)
  const corrected = Object.fromEntries(labels.map((l, i) => {
    const values = draws.map((d) => d[i]).sort((a, b) => a - b)
    const at = (f: number) => values[Math.min(values.length - 1, Math.floor(f * values.length))] ?? point[i]
    return [l, { share: point[i], interval: [Math.min(at(0.025), point[i]), Math.max(at(0.975), point[i])] as const }]
  }))
  return { labels, raw, corrected, method, reason: null }
}

/** The true mix from the raw mix and weighted rows; null when the confusion matrix is singular. */
export function solveMix(labels: readonly string[], q: readonly number[], rows: readonly WeightedRow[]): number[] | null {
  const counts = labels.map(() => labels.map(() => 0))
  for (const { row, weight } of rows) {
    const model = labels.indexOf(row.label)
    const truth = labels.indexOf(row.correct ? row.label : row.truth[0])
    if (model >= 0 && truth >= 0) counts[truth][model] += weight
  }
  const m = labels.map((_, j) => labels.map((_, i) => {
    const sum = counts[i].reduce((a, b) => a + b, 0)
    return sum === 0 ? NaN : counts[i][j] / sum
  }))
  const pi = solve(m, [...q])
  if (pi === null || pi.some((x) => !Number.isFinite(x))) return null
  const clipped = pi.map((x) => Math.min(1, Math.max(0, x)))
  const sum = clipped.reduce((a, b) => a + b, 0)
  return sum === 0 ? null : clipped.map((x) => x / sum)
}

/** Solves A x = b by Gaussian elimination with partial pivoting; null when A is singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]])
  for (let c = 0; c < n; c++) {
    let pivot = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r
    if (!(Math.abs(m[pivot][c]) > 1e-12)) return null
    ;[m[c], m[pivot]] = [m[pivot], m[c]]
    for (let r = 0; r < n; r++) {
      if (r === c) continue
      const f = m[r][c] / m[c][c]
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k]
    }
  }
  return m.map((row, i) => row[n] / row[i])
}

function bootstrap(labels: readonly string[], q: readonly number[], audit: QuestionAudit, seed: number): number[][] {
  const random = seededRandom(seed)
  const draws: number[][] = []
  for (let b = 0; b < RESAMPLES; b++) {
    const rows = STRATA.flatMap((s) => {
      const { size, rows: sample } = audit.strata[s]
      return sample.map(() => ({ row: sample[Math.floor(random() * sample.length)], weight: size / sample.length }))
    })
    const pi = solveMix(labels, q, rows)
    if (pi) draws.push(pi)
  }
  return draws
}
