import { wilsonInterval, Z95 } from './wilson.ts'

/** An interval read at the effective sample size, and that size. */
export interface EffectiveInterval {
  readonly interval: readonly [number, number]
  /** The rows a simple random sample would need for the same variance: p̃(1 − p̃) / V; Infinity when V is 0. */
  readonly effectiveSize: number
}

/**
 * Wilson's interval at the effective sample size (a stratified Wilson interval): the estimate
 * `point` of a proportion with variance `variance` is read as point·n* successes of n* rows, with
 * n* = p̃(1 − p̃) / V and p̃ the proportion the variance was taken at (`adjusted`, pulled in by
 * ADJUSTMENT). The interval always holds the point; with no variance it is the point alone.
 */
export function effectiveSizeInterval(point: number, adjusted: number, variance: number, z = Z95): EffectiveInterval {
  if (!(variance > 0)) return { interval: [point, point], effectiveSize: Infinity }
  const effectiveSize = (adjusted * (1 - adjusted)) / variance
  const [low, high] = wilsonInterval(point * effectiveSize, effectiveSize, z)!
  return { interval: [Math.min(low, point), Math.max(high, point)], effectiveSize }
}

/**
 * Kish's effective sample size of rows with unequal weights, (Σ w)² / Σ w²: the rows a simple
 * random sample would need to weigh as much. Equal weights give the row count.
 */
export function kishSize(weights: readonly number[]): number {
  const sum = weights.reduce((s, w) => s + w, 0)
  const squares = weights.reduce((s, w) => s + w * w, 0)
  return (sum * sum) / squares
}
