/** Formats USD with enough digits to show sub-cent amounts: 0.01, 0.0126, 1.25. */
export function formatUsd(usd: number): string {
  const fixed = usd.toFixed(usd >= 1 ? 2 : 6)
  return fixed.replace(/(\.\d\d\d*?)0+$/, '$1')
}

/** A share as a percentage with one decimal: 0.1234 -> "12.3%". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`
}
