/** What a stratified random sample took from one stratum: its rows, the sample, the sampled rows that count. */
export interface StratumCount {
  /** Rows of the stratum in the population, N_h. */
  readonly size: number
  /** Rows of the stratum in the sample, k_h, including those that could not be read. */
  readonly sampled: number
  /** Sampled rows that could be read (labelled), n_h. */
  readonly counted: number
}

/** One stratum of a stratified random sample, as a linearized variance reads it. */
export interface SampleStratum<Row> {
  /** The stratum's share of the population that can be read, W_h. */
  readonly share: number
  /** The finite-population correction, 1 − k_h / N_h. */
  readonly fpc: number
  /** The stratum's sampled rows that count. */
  readonly rows: readonly Row[]
}

/** One stratum's term of a stratified variance. */
export interface VarianceTerm {
  /** W_h. */
  readonly share: number
  /** 1 − f_h. */
  readonly fpc: number
  /** n_h, the rows the stratum's variance was read from. */
  readonly n: number
  /** S²_h, the variance of a row's value (or influence) within the stratum. */
  readonly within: number
}

/**
 * Each stratum's share of the population that can be read, W_h = N'_h / Σ N' with
 * N'_h = N_h · n_h / k_h: a stratum weighs by its rows times the share of its sample that could be
 * read. All zero when nothing was read.
 */
export function stratumShares(strata: readonly StratumCount[]): number[] {
  const readable = strata.map((s) => (s.counted === 0 ? 0 : (s.size * s.counted) / s.sampled))
  const total = readable.reduce((a, b) => a + b, 0)
  return readable.map((n) => (total === 0 ? 0 : n / total))
}

/**
 * Whether a stratum leaves the estimate unreadable: it has rows but none of its sample could be
 * read, and the sample did not take it whole (reviewed whole, it holds no row that can be read).
 */
export function unread(s: StratumCount): boolean {
  return s.size > 0 && s.counted === 0 && s.sampled < s.size
}

/** The finite-population correction of a stratum sampled without replacement, 1 − k_h / N_h, at least 0. */
export function finiteCorrection(s: Pick<StratumCount, 'size' | 'sampled'>): number {
  return Math.max(0, 1 - s.sampled / s.size)
}

/** The variance of a stratified mean (or a linearized estimator), Σ_h W_h² (1 − f_h) S²_h / n_h. */
export function stratifiedVariance(terms: readonly VarianceTerm[]): number {
  return terms.reduce((sum, s) => sum + (s.share * s.share * s.fpc * s.within) / s.n, 0)
}

/**
 * The sample variance S² = (E[v²] − E[v]²) · n / (n − 1) of n rows whose (weighted) mean is `mean`
 * and mean square `square`: 0 for fewer than two rows, which hold no variance to read.
 */
export function sampleVariance(mean: number, square: number, n: number): number {
  return n < 2 ? 0 : ((square - mean * mean) * n) / (n - 1)
}
