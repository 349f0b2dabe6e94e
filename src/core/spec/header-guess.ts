/**
 * Why the first line of a delimited file reads as a row rather than a header, or null when it reads
 * as a header: a cell that is a number, a cell that recurs in its column below it (a label such as
 * `ham`), or a long run of words. `rows` are the lines after the first, split into cells.
 */
export function headerlessReason(first: readonly string[], rows: readonly (readonly string[])[]): string | null {
  for (const [i, raw] of first.entries()) {
    const cell = raw.trim()
    if (cell === '') continue
    if (/^-?\d+(?:[.,]\d+)?$/.test(cell)) return `"${cell}" in column ${i + 1} is a number`
    if (rows.some((row) => row[i]?.trim() === cell))
      return `"${short(cell)}" in column ${i + 1} recurs in that column below it`
    if (cell.length > LONG && /\s/.test(cell)) return `column ${i + 1} holds ${cell.length} characters of text`
  }
  return null
}

// Longer than a column name anyone types, with spaces: a message, not a name.
const LONG = 60

/**
 * Names for the columns of a file without a header: `label` for the first column of few repeated values, `text` for the
 * first other, then `column3`…
 */
export function suggestedColumns(first: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const names: string[] = []
  for (const i of first.keys()) {
    const values = [first[i], ...rows.map((r) => r[i] ?? '')].map((v) => v.trim())
    const repeated = new Set(values).size <= Math.max(2, values.length / 2)
    const name =
      repeated && !names.includes('label') ? 'label' : !names.includes('text') && !repeated ? 'text' : `column${i + 1}`
    names.push(name)
  }
  return names
}

function short(cell: string): string {
  return cell.length > 30 ? `${cell.slice(0, 30)}…` : cell
}
