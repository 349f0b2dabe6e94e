import { lnGamma } from './ln-gamma.ts'

/** Pearson's statistic of a 2 × K table given as its two rows. */
export function chiSquare(rowA: readonly number[], rowB: readonly number[]): number {
  const na = sum(rowA)
  const nb = sum(rowB)
  const total = na + nb
  let x = 0
  for (let i = 0; i < rowA.length; i++) {
    const column = rowA[i] + rowB[i]
    if (column === 0) continue
    const ea = (column * na) / total
    const eb = (column * nb) / total
    x += (rowA[i] - ea) ** 2 / ea + (rowB[i] - eb) ** 2 / eb
  }
  return x
}

/** P(X ≥ x) for X chi-square with `df` degrees of freedom: the regularized upper incomplete gamma Q(df/2, x/2). */
export function chiSquareSurvival(x: number, df: number): number {
  if (x <= 0) return 1
  return upperGamma(df / 2, x / 2)
}

/** Q(s, x), by its series below s + 1 and its continued fraction above (Numerical Recipes, gser and gcf). */
export function upperGamma(s: number, x: number): number {
  const lnFront = -x + s * Math.log(x) - lnGamma(s)
  if (x < s + 1) {
    let term = 1 / s
    let total = term
    for (let n = 1; n < 500 && Math.abs(term) > Math.abs(total) * 1e-15; n++) total += term *= x / (s + n)
    return Math.max(0, 1 - total * Math.exp(lnFront))
  }
  const tiny = 1e-300
  let b = x + 1 - s
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - s)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const step = d * c
    h *= step
    if (Math.abs(step - 1) < 1e-15) break
  }
  return Math.min(1, Math.exp(lnFront) * h)
}

// A loop, not reduce: the permutation test calls chiSquare thousands of times per p value.
function sum(values: readonly number[]): number {
  let total = 0
  for (let i = 0; i < values.length; i++) total += values[i]
  return total
}
