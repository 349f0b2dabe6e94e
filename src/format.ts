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

/**
 * What answers cost, said one way by every command and page: `$0.0176`, or for simulated answers
 * (a `simulated-…` model) what System One would have charged, and that nothing was spent:
 * `would cost $0.0176 on System One (simulated: nothing spent)`. `per` follows the amount:
 * ` per 1,000 rows`.
 */
export function costWords(usd: number, simulated: boolean, per = ''): string {
  const amount = `$${formatUsd(usd)}${per}`
  return simulated ? `would cost ${amount} on System One (simulated: nothing spent)` : amount
}

/**
 * What a jury mixing real and simulated jurors costs: what its real jurors spend, with the simulated jurors' share
 * beside it, which spends nothing: `$0.0123 (and $0.0045 simulated: nothing spent)`.
 */
export function costWithSimulated(spent: number, simulated: number): string {
  return `$${formatUsd(spent)} (and $${formatUsd(simulated)} simulated: nothing spent)`
}

/** A share as a percentage with one decimal: 0.1234 -> "12.3%". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`
}

/**
 * A p value as the CLI and the pages write it: `p = 0.123` to three decimals, `p < 0.001` below
 * that, and `p -` without one (a test that was not run).
 */
export function pValue(p: number | null): string {
  return p === null ? 'p -' : p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`
}

/**
 * A difference of two shares in percentage points, signed, one decimal: 0.034 -> "+3.4 points",
 * -0.02 -> "-2.0 points". The minus is the ASCII hyphen-minus everywhere (CLI, pages, messages),
 * so that a figure copied from a page or a terminal reads back as a number.
 */
export function points(difference: number): string {
  return `${difference >= 0 ? '+' : '-'}${Math.abs(difference * 100).toFixed(1)} points`
}

/** A distance between two label mixes (total variation, 0 to 1), to three decimals: 0.12345 -> "0.123". */
export function distance(d: number): string {
  return d.toFixed(3)
}

/** A number to `digits` decimals, as a figure for withInterval: decimals(2)(0.714) -> "0.71". */
export const decimals =
  (digits: number) =>
  (x: number): string =>
    x.toFixed(digits)

/**
 * A figure with its interval when it has one, each written by `figure`: `0.71 (0.51 to 0.81)`, or
 * with the level named, as the CLI writes it, `0.71 (95% 0.51 to 0.81)`.
 */
export function withInterval(
  value: number,
  interval: readonly [number, number] | null,
  figure: (x: number) => string,
  level = '',
): string {
  return interval === null
    ? figure(value)
    : `${figure(value)} (${level}${figure(interval[0])} to ${figure(interval[1])})`
}

/** A count with thousands separators: 12345 -> "12,345". */
export function count(n: number): string {
  // One formatter, made at the first count: `toLocaleString` makes one per call (70 µs, where this takes 1).
  usFormat ??= new Intl.NumberFormat('en-US')
  return usFormat.format(n)
}

let usFormat: Intl.NumberFormat | undefined

/** A count with its noun, the noun made plural but for one: plural(3, 'row') -> "3 rows". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** An estimate whose 95% interval is wider than this (20 points) says first, in words, that it rests on few rows. */
export const ROUGH_WIDTH = 0.2

/**
 * An estimate from too few rows in plain words, said before its figures; null when its interval is
 * ROUGH_WIDTH wide or narrower: fewRows(2, [0, 0.682]) -> "only 2 sampled rows have a known label,
 * too few to say much: the accuracy is somewhere between 0% and 68%".
 */
export function fewRows(rows: number, interval: readonly [number, number]): string | null {
  if (interval[1] - interval[0] <= ROUGH_WIDTH + 1e-9) return null
  const have = rows === 1 ? '1 sampled row has' : `${rows} sampled rows have`
  const whole = (share: number) => `${Math.round(share * 100)}%`
  return (
    `only ${have} a known label, too few to say much: ` +
    `the accuracy is somewhere between ${whole(interval[0])} and ${whole(interval[1])}`
  )
}
