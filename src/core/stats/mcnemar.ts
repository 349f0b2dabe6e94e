/**
 * McNemar's exact test of "both sides are right as often" on paired rows, from the discordant
 * counts b (first side only right) and c (second only): two-sided, 2·P(X ≤ min(b, c)) for
 * X ~ Binomial(b + c, ½), at most 1.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c
  if (n === 0) return 1
  const k = Math.min(b, c)
  // Summed in logs: n may be in the thousands.
  let logTerm = -n * Math.LN2 // P(X = 0)
  let tail = Math.exp(logTerm)
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i)
    tail += Math.exp(logTerm)
  }
  return Math.min(1, 2 * tail)
}
