import { formatUsd, percent } from '../format.ts'

/** Formats rows of cells as an aligned text table with a header line. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd()
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

/** Pluralises a count: plural(3, 'row') -> "3 rows". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
