import { seededRandom } from '../review/seeded-random.ts'
import { lnGamma } from '../stats/ln-gamma.ts'

/** Below this expected count in any cell, the chi-square approximation is not trusted: the test permutes. */
export const MIN_EXPECTED = 5

/** Permutations drawn when the test permutes. */
export const PERMUTATIONS = 2000

/** The p value below which a change is significant, with the alert's change above DRIFT_ALERT. */
export const SIGNIFICANCE = 0.01

type Counts = Readonly<Record<string, number>>

/**
 * The p value of "both runs share one label mix", from their label counts (rows, or the effective
 * counts of core/reports/design-effect.ts, which need not be whole): Pearson's chi-square test of
 * the 2 × K table when every expected count is at least MIN_EXPECTED, else a permutation test of
 * the same statistic (PERMUTATIONS relabellings of the pooled rows, the counts rounded to whole
 * rows first, seeded by them, so the same runs always get the same p value). 1 when either run has
 * no rows or one label is all. A `spread` a² above 0 (core/reports/design-effect.ts) is Rao and
 * Scott's second-order correction of the chi-square test: X² / (1 + a²) on (K − 1) / (1 + a²) degrees of freedom.
 */
export function mixPValue(a: Counts, b: Counts, spread = 0): number {
  const labels = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((l) => (a[l] ?? 0) + (b[l] ?? 0) > 0).sort()
  const rowA = labels.map((l) => a[l] ?? 0)
  const rowB = labels.map((l) => b[l] ?? 0)
  const [na, nb] = [sum(rowA), sum(rowB)]
  if (na === 0 || nb === 0 || labels.length < 2) return 1
  const total = na + nb
  const smallest = Math.min(...labels.map((_, i) => ((rowA[i] + rowB[i]) * Math.min(na, nb)) / total))
  if (smallest >= MIN_EXPECTED) return chiSquareSurvival(chiSquare(rowA, rowB) / (1 + spread), (labels.length - 1) / (1 + spread))
  const [wholeA, wholeB] = [rowA, rowB].map((row) => row.map((x) => Math.round(x / (1 + spread))))
  if (sum(wholeA) === 0 || sum(wholeB) === 0) return 1
  const columns = labels.map((_, i) => wholeA[i] + wholeB[i])
  return permutationP(columns, sum(wholeA), chiSquare(wholeA, wholeB), `${labels.join('\0')}|${wholeA.join(',')}|${wholeB.join(',')}`)
}

/** Pearson's statistic of a 2 × K table given as its two rows. */
export function chiSquare(rowA: readonly number[], rowB: readonly number[]): number {
  const [na, nb] = [sum(rowA), sum(rowB)]
  const total = na + nb
  let x = 0
  for (let i = 0; i < rowA.length; i++) {
    const column = rowA[i] + rowB[i]
    if (column === 0) continue
    const [ea, eb] = [(column * na) / total, (column * nb) / total]
    x += (rowA[i] - ea) ** 2 / ea + (rowB[i] - eb) ** 2 / eb
  }
  return x
}

function permutationP(columns: readonly number[], na: number, observed: number, seedText: string): number {
  const random = seededRandom(hash(seedText))
  const pool = columns.flatMap((c, i) => Array<number>(c).fill(i))
  let atLeast = 0
  for (let r = 0; r < PERMUTATIONS; r++) {
    // A partial Fisher-Yates shuffle: the first na of the pool are run A's rows.
    const rowA = columns.map(() => 0)
    for (let i = 0; i < na; i++) {
      const j = i + Math.floor(random() * (pool.length - i))
      ;[pool[i], pool[j]] = [pool[j], pool[i]]
      rowA[pool[i]] += 1
    }
    if (chiSquare(rowA, columns.map((c, i) => c - rowA[i])) >= observed - 1e-9) atLeast += 1
  }
  return (atLeast + 1) / (PERMUTATIONS + 1)
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
    for (let n = 1; n < 500 && Math.abs(term) > Math.abs(total) * 1e-15; n++) total += (term *= x / (s + n))
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

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0)
}

/** A 32-bit FNV-1a hash of a text: the seed of a permutation test, so the same counts give the same p value. */
export function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}
