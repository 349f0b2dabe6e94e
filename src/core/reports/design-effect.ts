/**
 * How much repeated rows weigh in drift's test. Within one run a state has one answer per
 * question, so the m rows of a state are a cluster with one label: they are one piece of evidence
 * about the label mix, not m. The variance of a label's row share p̂ = n_k / n over states drawn at
 * random is, by linearization, Σ m² (y − p̂)² / n² (the sum over the run's states, y = 1 for a
 * state of label k), against p̂ (1 − p̂) / n were the rows independent; their ratio is the label's
 * design effect. docs/runs.md, "Repeated rows".
 */

/** A run's label mix as the test reads it: rows per label, and per label Σ m² over its states. */
export interface LabelMix {
  readonly counts: Readonly<Record<string, number>>
  /** Σ m² per label, m a state's rows in the run; null for a run recorded without them: its rows count as independent. */
  readonly squares: Readonly<Record<string, number>> | null
}

/**
 * The design effect of one label's share, from the run's rows `n` and Σ m² `s`, and the label's
 * `nk` and `sk`: Σ m² (y − p)² / (n p (1 − p)) with p = nk / n, written in whole numbers,
 * ((n − nk)² sk + nk² (s − sk)) / (n nk (n − nk)), so that exact repetition gives an exact figure.
 * 1 when no state repeats, m when every state has m rows; never below 1 (m² ≥ m for each state).
 */
export function labelDesignEffect(n: number, s: number, nk: number, sk: number): number {
  return ((n - nk) ** 2 * sk + nk ** 2 * (s - sk)) / (n * nk * (n - nk))
}

/**
 * A run's design effect: the mean of its labels' (Rao and Scott's first-order mean, weighing
 * each label by 1 − p over K − 1, K its labels with rows); with one label only, Kish's Σ m² / n,
 * the effect when labels do not go with repetition. 1 without Σ m² or without rows, and never
 * below 1.
 */
export function designEffect(mix: LabelMix): number {
  const labels = Object.keys(mix.counts).filter((l) => mix.counts[l] > 0)
  const n = labels.reduce((a, l) => a + mix.counts[l], 0)
  if (mix.squares === null || n === 0) return 1
  const squares = mix.squares
  const square = (l: string) => squares[l] ?? mix.counts[l]
  const s = labels.reduce((a, l) => a + square(l), 0)
  if (labels.length === 1) return Math.max(1, s / n)
  const weighted = labels.reduce((a, l) => a + (n - mix.counts[l]) * labelDesignEffect(n, s, mix.counts[l], square(l)), 0)
  return Math.max(1, weighted / ((labels.length - 1) * n))
}

/** A run's effective counts: its rows per label divided by its design effect, the independent rows they are worth. */
export function effectiveCounts(mix: LabelMix): Record<string, number> {
  const deff = designEffect(mix)
  return Object.fromEntries(Object.entries(mix.counts).map(([label, count]) => [label, count / deff]))
}
