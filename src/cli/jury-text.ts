import type { JuryQuestion } from '../app/juror-accuracy.ts'
import type { VersusJury } from '../core/jury/juror-accuracy.ts'
import type { JurorWeights, JuryWeights } from '../core/jury/jury-weights.ts'
import { isSimulated } from '../core/engine-kinds.ts'
import { percent, plural, points, pValue, withInterval } from '../format.ts'
import { table, usd } from './text.ts'

/** A difference in points without its unit, for a table whose header names it: +10.0, -2.5. */
const signed = (d: number) => points(d).replace(/ points$/, '')

/** A juror against the jury in a table cell: `+10.0 (95% -17.4 to +40.4), p = 1.000`; `-` without rows. */
export function versusText(v: VersusJury | null): string {
  return v === null ? '-' : `${withInterval(v.difference, v.interval, signed, '95% ')}, ${pValue(v.p_value)}`
}

/**
 * An estimated cost in a table cell: `$0.03`, said to be simulated for simulated models' answers (`models`: the
 * juror's, or every juror's for the jury's).
 */
export function jurorCost(usdCost: number, models: readonly string[]): string {
  return models.length > 0 && models.every(isSimulated) ? `${usd(usdCost)} (simulated: nothing spent)` : usd(usdCost)
}

/**
 * What each juror of a jury buys on one question, as `judge test` prints it under the question: the jury's accuracy
 * and each juror's on the same reviewed rows, each juror minus the jury in points, and the estimated cost of each on
 * those rows. Nothing for a one-model spec's question.
 */
export function juryLines(q: Partial<JuryQuestion>): string[] {
  const { jury, jurors } = q
  if (!jury || !jurors) return []
  return [...figureLines({ jury, jurors }), ...weightLines(jury.weights)]
}

function figureLines({ jury, jurors }: JuryQuestion): string[] {
  if (jury.rows === 0) return ['    jurors: no reviewed row that the jury and every juror answered yet']
  const accuracy = (f: { accuracy: number | null; interval: readonly [number, number] | null }) =>
    withInterval(f.accuracy!, f.interval, percent)
  const rows = [
    [
      jury.model,
      '',
      accuracy(jury),
      '',
      jurorCost(
        jury.cost_usd,
        jurors.map((j) => j.model),
      ),
    ],
    ...jurors.map((j) => [
      j.model,
      j.engine ?? 'ENGINE',
      accuracy(j),
      versusText(j.versus_jury),
      jurorCost(j.cost_usd, [j.model]),
    ]),
  ]
  const text = table(['model', 'engine', 'accuracy (95%)', 'juror - jury, points', 'cost (estimated)'], rows)
  return [
    `    what each juror buys, on the ${plural(jury.rows, 'reviewed row')} the jury and every juror answered:`,
    ...text
      .trimEnd()
      .split('\n')
      .map((line) => `      ${line}`),
    '      juror - jury: on the same rows (Newcombe interval, McNemar p); an interval across 0 shows no difference',
    "      cost: the juror's requests for these rows at its engine's estimate and price; the jury's, all of them",
  ]
}

/** A juror's matrix is printed for questions of at most this many labels; beyond, its accuracy alone. */
export const MATRIX_LABELS = 3

/** A share in whole percent, as a matrix entry is printed: `92%`. */
const whole = (share: number) => `${Math.round(share * 100)}%`

/**
 * The weights a jury answers a question with, as `judge test` prints them: whether it still counts votes equally (and
 * how many more reviewed rows it wants), or weighs its jurors, each with its fitted accuracy and, for up to
 * MATRIX_LABELS labels, how often it says each label by people's label (the point and Wilson's 95% interval).
 */
export function weightLines(w: JuryWeights): string[] {
  if (w.kind === 'vote') {
    return [
      `    the jury counts votes equally until ${plural(w.needed, 'more reviewed row')} with every juror's answer` +
        ` (${w.complete} of ${w.complete + w.needed} so far)`,
    ]
  }
  const unsettled = w.converged ? '' : `; not converged after ${w.iterations} iterations: its last estimate is used`
  return [
    `    the jury weighs its jurors by ${plural(w.reviewed, 'reviewed row')} (Dawid and Skene)${unsettled}:`,
    ...w.jurors.flatMap(jurorLines),
  ]
}

/** One juror's fitted accuracy, then its matrix compactly: one line for two labels, one per label for three. */
function jurorLines(j: JurorWeights): string[] {
  const head = `      ${j.model}: fitted accuracy ${percent(j.accuracy!)}`
  const labels = Object.keys(j.confusion!)
  if (labels.length > MATRIX_LABELS) return [`${head} (its matrix: --json)`]
  const says = (said: string) =>
    `says ${said} ` +
    labels
      .map((truth) => `when ${truth} ${withInterval(j.confusion![truth][said], j.intervals![truth][said], whole)}`)
      .join(', ')
  // With two labels, saying the first tells saying the second: its complement.
  if (labels.length <= 2) return [`${head}; ${says(labels[0])}`]
  return [head, ...labels.map((said) => `        ${says(said)}`)]
}
