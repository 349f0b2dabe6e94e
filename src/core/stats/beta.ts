import { lnGamma } from './ln-gamma.ts'

/**
 * The regularized incomplete beta function I_x(a, b) = P(X ≤ x) for X ~ Beta(a, b), a, b > 0: the
 * continued fraction of Numerical Recipes (betacf, modified Lentz), on the side where it converges
 * fast (x below (a + 1)/(a + b + 2)), else by the symmetry I_x(a, b) = 1 − I_{1−x}(b, a).
 */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x))
  if (x < (a + 1) / (a + b + 2)) return (front * continuedFraction(x, a, b)) / a
  return 1 - (front * continuedFraction(1 - x, b, a)) / b
}

function continuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 1000; m++) {
    const m2 = 2 * m
    // The even step of the fraction's terms, then the odd step: the same Lentz update of each.
    for (let odd = 0; odd < 2; odd++) {
      const aa =
        odd === 0
          ? (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
          : (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
      d = 1 + aa * d
      if (Math.abs(d) < tiny) d = tiny
      c = 1 + aa / c
      if (Math.abs(c) < tiny) c = tiny
      d = 1 / d
      h *= d * c
    }
    if (Math.abs(d * c - 1) < 1e-15) break
  }
  return h
}

/**
 * The q-quantile of Beta(a, b): the x with I_x(a, b) = q, by Newton's method on I (whose slope is
 * the beta density), kept inside a bracket that every step narrows and bisected when a step would
 * leave it, to within 1e-15 of x. q = 0 gives 0 and q = 1 gives 1.
 */
export function betaQuantile(q: number, a: number, b: number): number {
  if (q <= 0) return 0
  if (q >= 1) return 1
  const lnBeta = lnGamma(a) + lnGamma(b) - lnGamma(a + b)
  let [lo, hi] = [0, 1]
  let x = a / (a + b)
  for (let i = 0; i < 200 && hi - lo > 1e-15; i++) {
    const f = regularizedBeta(x, a, b) - q
    if (f === 0) return x
    if (f < 0) lo = x
    else hi = x
    const density = Math.exp((a - 1) * Math.log(x) + (b - 1) * Math.log1p(-x) - lnBeta)
    const next = x - f / density
    const step = Number.isFinite(next) && next > lo && next < hi ? next : (lo + hi) / 2
    if (Math.abs(step - x) < 1e-16) return step
    x = step
  }
  return x
}
