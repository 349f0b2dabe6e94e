/** The normal quantile of a two-sided 95% interval. */
export const Z95 = 1.959963984540054

/**
 * The 95% Wilson score interval of `successes` out of `n`:
 * (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), or null when n is 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | null {
  if (n <= 0) return null
  const p = successes / n
  const z2 = z * z
  const denominator = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  // At p = 0 and p = 1 the bound is exactly 0 or 1; floating point would land a hair inside.
  return [successes <= 0 ? 0 : Math.max(0, centre - half), successes >= n ? 1 : Math.min(1, centre + half)]
}
