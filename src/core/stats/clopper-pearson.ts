import { betaQuantile } from './beta.ts'

/**
 * The Clopper-Pearson ("exact") interval for a proportion from `successes` of `n`, at `level`
 * (0.95 by default): the beta quantiles Beta(α/2; x, n − x + 1) and Beta(1 − α/2; x + 1, n − x),
 * 0 when x = 0 and 1 when x = n. Each end misses the true proportion at most α/2 of the time, for
 * every n and every proportion. `successes` may be fractional (a score of ½ per tie), read as a
 * point between the integer counts on the same beta quantiles. Null when n is 0.
 */
export function clopperPearson(successes: number, n: number, level = 0.95): [number, number] | null {
  if (n <= 0) return null
  const alpha = 1 - level
  const x = Math.min(n, Math.max(0, successes))
  const lower = x === 0 ? 0 : betaQuantile(alpha / 2, x, n - x + 1)
  const upper = x === n ? 1 : betaQuantile(1 - alpha / 2, x + 1, n - x)
  return [lower, upper]
}
