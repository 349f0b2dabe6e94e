import type { RatedUnit } from './gwet-ac1-raters.ts'

/** The level of measurement α's distances read: nominal (same or not) or ordinal (ranks over the values' counts). */
export type AlphaLevel = 'nominal' | 'ordinal'

/**
 * Krippendorff's α with missing ratings: 1 − D_o / D_e over the coincidence matrix. Units with
 * fewer than two ratings are left out (unpairable); each pairable unit u with m_u ratings adds
 * 1 / (m_u − 1) to o_ck for every ordered pair of its ratings; n_c = Σ_k o_ck, n = Σ n_c;
 * D_o = Σ o_ck δ²_ck / n, D_e = Σ n_c n_k δ²_ck / (n (n − 1)). Nominal δ² = 0 when c = k, else 1;
 * ordinal δ²_ck = (Σ_{g from c to k} n_g − (n_c + n_k)/2)², the values ordered as `values`
 * (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011). A rating outside `values`
 * is left out. NaN when nothing is pairable or every rating is one value (D_e = 0).
 */
export function krippendorffAlpha(units: readonly RatedUnit[], values: readonly string[], level: AlphaLevel): number {
  return alphaOfUnits(alphaUnits(units, values), values.length, level)
}

/** Each unit's ratings as indexes into `values`, those outside left out, read once: what α is computed from. */
export function alphaUnits(units: readonly RatedUnit[], values: readonly string[]): number[][] {
  return units.map((unit) => unit.map((l) => values.indexOf(l)).filter((i) => i >= 0))
}

/** α from its units' ratings as indexes (alphaUnits) into `q` values: krippendorffAlpha without reading a label. */
export function alphaOfUnits(units: readonly (readonly number[])[], q: number, level: AlphaLevel): number {
  const o = Array.from({ length: q }, () => new Array<number>(q).fill(0))
  for (const ratings of units) {
    const m = ratings.length
    if (m < 2) continue
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) o[ratings[i]][ratings[j]] += 1 / (m - 1)
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0))
  const n = nc.reduce((a, b) => a + b, 0)
  if (n <= 1) return NaN
  const delta = (c: number, k: number): number => {
    if (c === k) return 0
    if (level === 'nominal') return 1
    const [low, high] = c < k ? [c, k] : [k, c]
    let between = 0
    for (let g = low; g <= high; g++) between += nc[g]
    return (between - (nc[c] + nc[k]) / 2) ** 2
  }
  let observed = 0
  let expected = 0
  for (let c = 0; c < q; c++)
    for (let k = 0; k < q; k++) {
      const d = delta(c, k)
      observed += o[c][k] * d
      expected += nc[c] * nc[k] * d
    }
  if (expected === 0) return NaN
  return 1 - ((n - 1) * observed) / expected
}
