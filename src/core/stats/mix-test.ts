import { chiSquare, chiSquareSurvival } from './chi-square.ts'
import { partialShuffle } from './seeded-random.ts'

/** Below this expected count in any cell, the chi-square approximation is not trusted: the test permutes. */
export const MIN_EXPECTED = 5

/** Permutations drawn when the test permutes. */
export const PERMUTATIONS = 2000

type Counts = Readonly<Record<string, number>>

/**
 * The p value of "both runs share one label mix", from their label counts (rows, or the effective
 * counts of core/stats/design-effect.ts, which need not be whole): Pearson's chi-square test of
 * the 2 × K table when every expected count is at least MIN_EXPECTED, else a permutation test of
 * the same statistic (PERMUTATIONS relabellings of the pooled rows, the counts rounded to whole
 * rows first, seeded by them, so the same runs always get the same p value). 1 when either run has
 * no rows or one label is all. A `spread` a² above 0 (core/stats/design-effect.ts) is Rao and
 * Scott's second-order correction of the chi-square test: X² / (1 + a²) on (K − 1) / (1 + a²) degrees of freedom.
 */
export function mixPValue(a: Counts, b: Counts, spread = 0): number {
  const labels = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((l) => (a[l] ?? 0) + (b[l] ?? 0) > 0)
    .sort()
  const rowA = labels.map((l) => a[l] ?? 0)
  const rowB = labels.map((l) => b[l] ?? 0)
  const [na, nb] = [sum(rowA), sum(rowB)]
  if (na === 0 || nb === 0 || labels.length < 2) return 1
  const total = na + nb
  const smallest = Math.min(...labels.map((_, i) => ((rowA[i] + rowB[i]) * Math.min(na, nb)) / total))
  if (smallest >= MIN_EXPECTED)
    return chiSquareSurvival(chiSquare(rowA, rowB) / (1 + spread), (labels.length - 1) / (1 + spread))
  const [wholeA, wholeB] = [rowA, rowB].map((row) => row.map((x) => Math.round(x / (1 + spread))))
  if (sum(wholeA) === 0 || sum(wholeB) === 0) return 1
  const columns = labels.map((_, i) => wholeA[i] + wholeB[i])
  return permutationP(
    columns,
    sum(wholeA),
    chiSquare(wholeA, wholeB),
    `${labels.join('\0')}|${wholeA.join(',')}|${wholeB.join(',')}`,
  )
}

function permutationP(columns: readonly number[], na: number, observed: number, seedText: string): number {
  let state = hash(seedText)
  const pool = Int32Array.from(columns.flatMap((c, i) => Array<number>(c).fill(i)))
  // The two rows of each relabelling, reused: nothing is allocated per permutation.
  const rowA = columns.map(() => 0)
  const rowB = columns.map(() => 0)
  let atLeast = 0
  for (let r = 0; r < PERMUTATIONS; r++) {
    for (let k = 0; k < columns.length; k++) rowA[k] = 0
    // A partial Fisher-Yates shuffle, going on from the last: the first na of the pool are run A's rows.
    state = partialShuffle(state, pool, na, rowA)
    for (let k = 0; k < columns.length; k++) rowB[k] = columns[k] - rowA[k]
    if (chiSquare(rowA, rowB) >= observed - 1e-9) atLeast += 1
  }
  return (atLeast + 1) / (PERMUTATIONS + 1)
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
