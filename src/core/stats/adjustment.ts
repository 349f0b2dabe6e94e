import { Z95 } from './wilson.ts'

/**
 * Pseudo-successes and pseudo-failures added to each stratum before its variance is taken: half of
 * Agresti and Coull's z²/2, so a stratum whose few rows are all right (or all wrong) still adds
 * variance, while a stratum with many rows keeps almost exactly its own.
 */
export const ADJUSTMENT = (Z95 * Z95) / 4

/** A share of `successes` in `n` pulled toward ½ by ADJUSTMENT pseudo-rows each way: (x + a) / (n + 2a). */
export function adjustedShare(successes: number, n: number): number {
  return (successes + ADJUSTMENT) / (n + 2 * ADJUSTMENT)
}
