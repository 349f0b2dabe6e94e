/**
 * The grid the answer tally is kept on (docs/review.md, The answer tally). Values are read in
 * nanos, as the store's SQL reads them, and each lands in a cell of hundredths: an even key for a
 * value exactly on a hundredth, an odd key for the open interval between two, so that a comparison
 * with any hundredth (`>=`, `>`, `==`, ...) holds for every value of a cell or for none.
 */

/** Nanos per unit: stored p and margin are rounded to 1e-9 (core/judge/answer.ts, tidy). */
export const NANOS = 1_000_000_000
/** Cells per unit: hundredths. */
export const GRID = 100
/** Nanos per cell. */
export const STEP = NANOS / GRID

/**
 * A value in nanos, rounded as SQLite's round() does for a value of 0 or more, so that the store's keys and these
 * agree.
 */
export function nanosOf(x: number): number {
  return x >= 0 ? Math.trunc(x * NANOS + 0.5) : -Math.trunc(-x * NANOS + 0.5)
}

/** The cell of a value: 2k for exactly k hundredths, 2k + 1 for the values between k and k + 1 hundredths. */
export function gridKey(x: number): number {
  const n = nanosOf(x)
  const k = Math.floor(n / STEP)
  return n - k * STEP === 0 ? 2 * k : 2 * k + 1
}

/** A value that stands for every value of a cell: its hundredth, or the middle of its interval. */
export function keyValue(key: number): number {
  const k = Math.floor(key / 2)
  return key % 2 === 0 ? k / GRID : (k + 0.5) / GRID
}

/** Whether a value is a hundredth, so that no cell has values on both sides of it. */
export function onGrid(x: number): boolean {
  return Number.isFinite(x) && nanosOf(x) % STEP === 0
}

/** The greatest hundredth at or below a value. */
export function gridFloor(x: number): number {
  return Math.floor(nanosOf(x) / STEP) / GRID
}

/** The SQL of a column's value in nanos, as nanosOf computes it (the column is 0 or more). */
export function nanosSql(column: string): string {
  return `CAST(round(${column} * ${NANOS}) AS INTEGER)`
}

/** The SQL of a column's cell, as gridKey computes it (the column is 0 or more). */
export function gridKeySql(column: string): string {
  const n = nanosSql(column)
  return `(${n} / ${STEP} * 2 + (${n} % ${STEP} != 0))`
}
