/** What a jury is fitted on, and its checks: the jurors' labels by row, counted into patterns. */

/** Jurors' labels on one row, by juror index: a label index into `labels`, or null where that juror has no answer. */
export type Said = readonly (number | null)[]

/** Rows sharing the same jurors' labels, counted (the fit walks patterns, never rows: at most L^J of them). */
export interface Pattern {
  readonly said: Said
  readonly count: number
}

/** A reviewed row: what the jurors said and the label people gave (index into labels). */
export interface Anchor {
  readonly said: Said
  readonly truth: number
}

/** What the jury is fitted on: the labels, how many jurors, every row's pattern and the reviewed rows. */
export interface JuryInput {
  readonly labels: readonly string[]
  readonly jurors: number
  /** Every row the jurors answered, reviewed or not, as counted patterns (reviewed rows included). */
  readonly patterns: readonly Pattern[]
  /** The reviewed rows (each also counted in `patterns`; one that is not is counted as one more row). */
  readonly anchors: readonly Anchor[]
}

/**
 * Counts rows into patterns: rows with the same jurors' labels become one pattern, in the order first met.
 * The fit's cost then depends on the distinct patterns, not on the rows.
 */
export function patternsOf(rows: readonly Said[]): Pattern[] {
  const counts = new Map<string, { said: Said; count: number }>()
  for (const said of rows) {
    const key = keyOf(said)
    const found = counts.get(key)
    if (found) found.count += 1
    else counts.set(key, { said, count: 1 })
  }
  return [...counts.values()]
}

/** A pattern's key, and how errors show it: the labels by juror, `-` for an absent juror. */
export function keyOf(said: Said): string {
  return `[${said.map((s) => (s === null ? '-' : String(s))).join(',')}]`
}

/** Checks the input's shape, naming what is wrong and where. */
export function checkInput(input: JuryInput): void {
  const L = input.labels.length
  if (L === 0) throw new Error('fitJury: a jury needs at least one label')
  if (new Set(input.labels).size !== L) throw new Error(`fitJury: the labels repeat: ${input.labels.join(', ')}`)
  if (!Number.isInteger(input.jurors) || input.jurors < 1) {
    throw new Error(`fitJury: jurors must be a whole number of at least 1, not ${input.jurors}`)
  }
  input.patterns.forEach((p, i) => {
    checkSaid(p.said, L, input.jurors, `fitJury: pattern ${i}`)
    if (!Number.isFinite(p.count) || p.count < 0) {
      throw new Error(`fitJury: pattern ${i} counts ${p.count} rows; a count is a number of at least 0`)
    }
  })
  input.anchors.forEach((a, i) => {
    checkSaid(a.said, L, input.jurors, `fitJury: reviewed row ${i}`)
    if (!isLabel(a.truth, L)) {
      throw new Error(`fitJury: reviewed row ${i} has truth ${a.truth}, not a label index from 0 to ${L - 1}`)
    }
  })
}

/** Checks one row's labels: one per juror, each a label index or null. */
export function checkSaid(said: Said, L: number, J: number, where: string): void {
  if (said.length !== J) throw new Error(`${where} gives ${said.length} jurors' labels, not ${J}`)
  said.forEach((s, j) => {
    if (s !== null && !isLabel(s, L)) {
      throw new Error(`${where}: juror ${j} says ${s}, not a label index from 0 to ${L - 1}`)
    }
  })
}

/** Whether a number is a label index. */
function isLabel(x: number, L: number): boolean {
  return Number.isInteger(x) && x >= 0 && x < L
}
