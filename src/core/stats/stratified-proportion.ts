import { adjustedShare } from './adjustment.ts'
import { effectiveSizeInterval } from './effective-size.ts'
import { finiteCorrection, stratifiedVariance, stratumShares, unread, type StratumCount } from './stratified.ts'
import { Z95 } from './wilson.ts'

/** One stratum (or cell) of a population, and what its random sample found. */
export interface Cell extends StratumCount {
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
 * The stratified estimate of a proportion with a 95% interval: each cell weighs by its rows times
 * the share of its sample that could be labelled (stratumShares), the variance is the stratified
 * one with the finite-population correction, and the interval is Wilson's at the effective sample
 * size (effectiveSizeInterval). Cell proportions in the variance are adjusted (adjustedShare), so
 * the interval never collapses on a cell with no failures. Null when a cell with rows has none
 * counted, unless its whole population was sampled (then it holds no row that can be labelled).
 */
export function stratifiedProportion(cells: readonly Cell[], z = Z95): StratifiedProportion | null {
  const used = cells.filter((c) => c.size > 0)
  if (used.some(unread) || used.every((c) => c.counted === 0)) return null
  const shares = stratumShares(used)
  let point = 0
  let adjusted = 0
  const terms = used.flatMap((c, i) => {
    if (c.counted === 0) return []
    const w = shares[i]
    const q = adjustedShare(c.successes, c.counted)
    point += w * (c.successes / c.counted)
    adjusted += w * q
    return [{ share: w, fpc: finiteCorrection(c), n: c.counted, within: q * (1 - q) }]
  })
  return { point, ...effectiveSizeInterval(point, adjusted, stratifiedVariance(terms), z) }
}
