import { pairedDifference, type PairedTable } from '../compare/paired.ts'
import { wilsonInterval } from '../stats/wilson.ts'

/** One labeller of a question compared: its model id and its label per state hash. */
export interface LabelsOf {
  readonly model: string
  readonly labels: ReadonlyMap<string, string>
}

/** What jurorAccuracy compares: people's labels, the jury's answers, and each juror's. */
export interface JurorAccuracyInput {
  /** The labels people's verdicts saved, by state hash (two for `both_ok`); rows without a label left out. */
  readonly truth: ReadonlyMap<string, readonly string[]>
  readonly jury: LabelsOf
  readonly jurors: readonly LabelsOf[]
}

/** A labeller's accuracy on the compared rows. */
export interface RowsAccuracy {
  readonly model: string
  /** The compared rows: reviewed, and answered by the jury and every juror. */
  readonly rows: number
  readonly correct: number
  /** correct / rows; null without rows. */
  readonly accuracy: number | null
  /** Wilson's 95% interval of it; null without rows. */
  readonly interval: readonly [number, number] | null
}

/** A juror against the jury on the same rows: juror minus jury accuracy, Newcombe's interval, McNemar's p. */
export interface VersusJury {
  readonly difference: number
  readonly interval: readonly [number, number]
  readonly p_value: number
}

/** One juror's figures: its accuracy and, on the same rows, how far it is from the jury's; null without rows. */
export interface JurorRowsAccuracy extends RowsAccuracy {
  readonly versus_jury: VersusJury | null
}

/** The jury's and each juror's accuracy on one question's compared rows. */
export interface JurorComparison {
  readonly jury: RowsAccuracy
  /** In the spec's order. */
  readonly jurors: readonly JurorRowsAccuracy[]
}

/**
 * The rows a question's jurors are compared on: the reviewed rows (a label from people) that the jury and every juror
 * answered, in the truth's order. The same rows for everyone, so that the figures are paired.
 */
export function comparedRows(input: JurorAccuracyInput): string[] {
  const answered = [input.jury, ...input.jurors]
  return [...input.truth.keys()].filter((hash) => answered.every((a) => a.labels.has(hash)))
}

/**
 * Each juror's accuracy and the jury's on the same reviewed rows, and each juror against the jury: the paired
 * difference `judge compare` uses (core/compare/paired.ts), the juror as the candidate and the jury as the live spec.
 */
export function jurorAccuracy(input: JurorAccuracyInput): JurorComparison {
  const rows = comparedRows(input)
  const right = (of: LabelsOf, hash: string) => input.truth.get(hash)!.includes(of.labels.get(hash)!)
  const jury = accuracyOf(input.jury.model, rows.length, rows.filter((h) => right(input.jury, h)).length)
  const jurors = input.jurors.map((juror): JurorRowsAccuracy => {
    const table: { -readonly [K in keyof PairedTable]: number } = { both: 0, candidate: 0, live: 0, neither: 0 }
    for (const h of rows) {
      const [mine, theirs] = [right(juror, h), right(input.jury, h)]
      if (mine && theirs) table.both += 1
      else if (mine) table.candidate += 1
      else if (theirs) table.live += 1
      else table.neither += 1
    }
    const paired = pairedDifference(table)
    return {
      ...accuracyOf(juror.model, rows.length, table.both + table.candidate),
      versus_jury: paired && { difference: paired.difference, interval: paired.interval, p_value: paired.p_value },
    }
  })
  return { jury, jurors }
}

function accuracyOf(model: string, rows: number, correct: number): RowsAccuracy {
  return { model, rows, correct, accuracy: rows === 0 ? null : correct / rows, interval: wilsonInterval(correct, rows) }
}
