/**
 * Formats USD with enough digits to show sub-cent amounts: 0.01, 0.0126, 1.25. Amounts too small
 * for six decimals keep two significant digits (0.0000001, 0.000000015), so a cap or an estimate
 * never reads as $0.00 when it is not zero.
 */
export function formatUsd(usd: number): string {
  const small = usd > 0 && usd < 1e-4 ? Math.ceil(-Math.log10(usd)) + 1 : 0
  const fixed = usd.toFixed(usd >= 1 ? 2 : Math.min(20, Math.max(6, small)))
  return fixed.replace(/(\.\d\d\d*?)0+$/, '$1')
}

/** A share as a percentage with one decimal: 0.1234 -> "12.3%". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`
}
