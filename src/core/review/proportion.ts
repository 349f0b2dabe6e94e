import { wilsonInterval, Z95 } from './accuracy.ts'

/** One stratum (or cell) of a population, and what its random sample found. */
export interface Cell {
  /** Rows in the cell. */
  readonly size: number
  /** Rows of the cell in the sample, including those that could not be labelled. */
  readonly sampled: number
  /** Sampled rows with a true label. */
  readonly counted: number
  /** Counted rows that are successes (the model is right). */
  readonly successes: number
}

/** A proportion estimated from a stratified random sample. */
export interface StratifiedProportion {
  readonly point: number
  readonly interval: readonly [number, number]
  /** The sample size a simple random sample would need for the same variance. */
  readonly effectiveSize: number
}

/**
 * Pseudo-successes and pseudo-failures added to each cell before its variance is taken: half of
 * Agresti and Coull's z²/2, so a cell whose few verdicts are all right (or all wrong) still adds
 * variance, while a cell with many verdicts keeps almost exactly its own.
 */
export const ADJUSTMENT = (Z95 * Z95) / 4

/**
 * The stratified estimate of a proportion with a 95% interval: each cell weighs by its rows times
 * the share of its sample that could be labelled, the variance is the stratified one with the
 * finite-population correction, and the interval is Wilson's at the effective sample size (a
 * stratified Wilson interval). Cell proportions in the variance are adjusted (ADJUSTMENT), so the
 * interval never collapses on a cell with no failures. Null when a cell with rows has none
 * counted, unless its whole population was sampled (then it holds no row that can be labelled).
 */
export function stratifiedProportion(cells: readonly Cell[], z = Z95): StratifiedProportion | null {
  const used = cells.filter((c) => c.size > 0)
  if (used.some((c) => c.counted === 0 && c.sampled < c.size)) return null
  const sizes = used.map((c) => (c.counted === 0 ? 0 : (c.size * c.counted) / c.sampled))
  const total = sizes.reduce((a, b) => a + b, 0)
  if (total === 0) return null
  let point = 0
  let adjusted = 0
  let variance = 0
  used.forEach((c, i) => {
    if (sizes[i] === 0) return
    const w = sizes[i] / total
    const p = c.successes / c.counted
    const q = (c.successes + ADJUSTMENT) / (c.counted + 2 * ADJUSTMENT)
    point += w * p
    adjusted += w * q
    variance += (w * w * Math.max(0, 1 - c.sampled / c.size) * q * (1 - q)) / c.counted
  })
  if (variance === 0) return { point, interval: [point, point], effectiveSize: Infinity }
  const effectiveSize = (adjusted * (1 - adjusted)) / variance
  const interval = wilsonInterval(point * effectiveSize, effectiveSize, z)!
  return { point, interval: [Math.min(interval[0], point), Math.max(interval[1], point)], effectiveSize }
}
