/**
 * How much repeated rows weigh in drift's test (docs/runs.md, "Repeated rows"). Within one run a
 * state has one answer per question, so the m rows of a state are a cluster with one label: one
 * piece of evidence about the label mix, not m. Under "both runs share one mix" (shares p, pooled
 * over both runs' rows), a run's row shares vary by Σ m² (y − p)(y − p)ᵀ / n², the sum over its
 * states (y the state's label as a 0/1 vector), against Σ (y − p)(y − p)ᵀ / n² over its rows were
 * every row its own state. The run's design effect is the ratio of the two in the chi-square
 * metric (the trace of P⁻¹ times each, P the multinomial covariance of p): Rao and Scott's mean
 * design effect, taken at the pooled shares.
 */

/** A run's label mix as the test reads it: rows per label, and per label Σ m² over its states. */
export interface LabelMix {
  readonly counts: Readonly<Record<string, number>>
  /**
   * Σ m² per label, m a state's rows in the run; null for a run recorded without them: its rows count as independent.
   */
  readonly squares: Readonly<Record<string, number>> | null
}

/**
 * A run's design effect against the rows per label pooled over the two runs compared: the sum
 * over labels of Σ m² times (1 − p) / p, over the sum of rows times (1 − p) / p. Each state's
 * squared rows are so weighed by how far its label is from the pooled mix. Exactly 1 when no
 * state repeats (or Σ m² is unknown), exactly m when every state has m rows; never below 1, since
 * m² ≥ m for every state. A label with rows in neither run, and a pair with fewer than two labels, weigh nothing.
 */
export function designEffect(mix: LabelMix, pooled: Readonly<Record<string, number>>): number {
  if (mix.squares === null) return 1
  const labels = Object.keys(pooled).filter((l) => pooled[l] > 0)
  const total = labels.reduce((a, l) => a + pooled[l], 0)
  let clustered = 0
  let rows = 0
  for (const label of labels) {
    const weight = (total - pooled[label]) / pooled[label]
    const count = mix.counts[label] ?? 0
    clustered += weight * (mix.squares[label] ?? count)
    rows += weight * count
  }
  return rows > 0 ? Math.max(1, clustered / rows) : 1
}

/**
 * Two runs' effective counts: each run's rows per label divided by its design effect, the independent rows they are
 * worth.
 */
export function effectiveCounts(a: LabelMix, b: LabelMix): [Record<string, number>, Record<string, number>] {
  const pooled = pool(a, b)
  const scaled = (mix: LabelMix) => {
    const deff = designEffect(mix, pooled)
    return Object.fromEntries(Object.entries(mix.counts).map(([label, count]) => [label, count / deff]))
  }
  return [scaled(a), scaled(b)]
}

/**
 * How unequal the design effects of the labels are, as Rao and Scott's second-order correction
 * reads it: a² = Σλ² / ((K − 1) λ̄²) − 1 over the eigenvalues λ of the generalized design effect
 * matrix of the two runs' difference (the covariance of their shares with repeated rows, over the
 * same with every row its own state, at the pooled shares). A state has one label, so both
 * matrices are Σ_k c_k (e_k − p)(e_k − p)ᵀ and the traces need only the ratios λ_k = s_k / r_k
 * of Σ m² / n² to rows / n² per label, summed over the runs: tr = Σλ_k − Σ w_k λ_k and
 * tr² = Σλ_k² − 2 Σ w_k λ_k² + (Σ w_k λ_k)², with w_k ∝ p_k² / r_k. 0 when every label's ratio is
 * the same (always with two labels, or without repeated rows).
 */
export function designSpread(a: LabelMix, b: LabelMix): number {
  const pooled = pool(a, b)
  const labels = Object.keys(pooled).filter((l) => pooled[l] > 0)
  const [na, nb] = [a, b].map((mix) => Object.values(mix.counts).reduce((x, y) => x + y, 0))
  if (labels.length < 3 || na === 0 || nb === 0) return 0
  const square = (mix: LabelMix, l: string) => mix.squares?.[l] ?? mix.counts[l] ?? 0
  const r = labels.map((l) => (a.counts[l] ?? 0) / na ** 2 + (b.counts[l] ?? 0) / nb ** 2)
  const lambda = labels.map((l, k) => (square(a, l) / na ** 2 + square(b, l) / nb ** 2) / r[k])
  // Equal ratios (to rounding) are no spread: exact repetition, or none, stays the first-order test.
  if (lambda.every((x) => Math.abs(x - lambda[0]) <= 1e-12 * lambda[0])) return 0
  const total = labels.reduce((x, l) => x + pooled[l], 0)
  const raw = labels.map((l, k) => (pooled[l] / total) ** 2 / r[k])
  const w = raw.map((x) => x / raw.reduce((y, z) => y + z, 0))
  const sum = (f: (x: number, k: number) => number) => lambda.reduce((acc, x, k) => acc + f(x, k), 0)
  const mean = sum((x) => x) - sum((x, k) => w[k] * x)
  const squares = sum((x) => x * x) - 2 * sum((x, k) => w[k] * x * x) + sum((x, k) => w[k] * x) ** 2
  return Math.max(0, ((labels.length - 1) * squares) / mean ** 2 - 1)
}

function pool(a: LabelMix, b: LabelMix): Record<string, number> {
  const pooled: Record<string, number> = {}
  for (const mix of [a, b])
    for (const [label, count] of Object.entries(mix.counts)) pooled[label] = (pooled[label] ?? 0) + count
  return pooled
}
