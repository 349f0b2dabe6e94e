import { isSimulated } from '../core/engine-kinds.ts'
import { costWords, formatUsd, percent } from '../format.ts'

/** Formats rows of cells as an aligned text table with a header line. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (c ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)].join('\n') + '\n'
}

/** A label mix as "yes 12.3%  no 87.7%", largest first. */
export function mix(shares: Readonly<Record<string, number>>): string {
  return Object.entries(shares)
    .sort((a, b) => b[1] - a[1])
    .map(([label, share]) => `${label} ${percent(share)}`)
    .join('  ')
}

/** USD with a dollar sign. */
export function usd(amount: number): string {
  return `$${formatUsd(amount)}`
}

/**
 * What answers of a model cost as the CLI says it in a sentence: `cost $0.0176`, or for a
 * `simulated-…` model the one wording of simulated cost (costWords): nothing was spent.
 */
export function costText(cost: number, model: string): string {
  return isSimulated(model) ? costWords(cost, true) : `cost ${usd(cost)}`
}

/** How long ago a UTC timestamp without zone offset was: "40 s", "12 min", "5 h", "3 d". */
export function age(at: string, now: Date): string {
  const seconds = Math.max(0, (now.getTime() - new Date(`${at}Z`).getTime()) / 1000)
  if (!Number.isFinite(seconds)) return '?'
  if (seconds < 60) return `${Math.floor(seconds)} s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`
  return `${Math.floor(seconds / 86400)} d`
}
