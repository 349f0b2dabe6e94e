import type { DriftEntry } from '../types.ts'
import type { RunLabelCount } from '../../ports/run-store.ts'
import { tidy } from '../judge/answer.ts'
import { designSpread, effectiveCounts, type LabelMix } from '../stats/design-effect.ts'
import { mixPValue } from '../stats/mix-test.ts'

/** The p value below which a change is significant, with the alert's change above DRIFT_ALERT. */
export const SIGNIFICANCE = 0.01

/** The drift alert threshold: a change above it is flagged (docs/http-api.md, `GET /v1/drift`). */
export const DRIFT_ALERT = 0.1

/** Shares of each label: counts divided by their total; an empty mix gives no shares. */
export function shares(counts: Readonly<Record<string, number>>): Record<string, number> {
  const total = Object.values(counts).reduce((a, b) => a + b, 0)
  const out: Record<string, number> = {}
  if (total === 0) return out
  for (const [label, count] of Object.entries(counts)) out[label] = tidy(count / total)
  return out
}

/** Total variation distance between two label mixes: half the sum of absolute differences. */
export function totalVariation(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): number {
  let sum = 0
  for (const label of new Set([...Object.keys(a), ...Object.keys(b)]))
    sum += Math.abs((a[label] ?? 0) - (b[label] ?? 0))
  return tidy(sum / 2)
}

/**
 * Whether a change between two runs' label mixes is noise: its p value, at full precision, and
 * whether it is a significant alert. The test reads each run's effective counts, so that rows
 * repeating a state weigh as the one answer they are (core/stats/design-effect.ts).
 */
export function noiseOf(
  before: LabelMix | null,
  after: LabelMix,
  alert: boolean,
): { p_value: number | null; significant: boolean } {
  if (before === null) return { p_value: null, significant: false }
  const p = mixPValue(...effectiveCounts(before, after), designSpread(before, after))
  return { p_value: p, significant: alert && p < SIGNIFICANCE }
}

/** Adds a label count to a run's mix: its rows, and its Σ m² while every count of the run has one. */
export function addCount(
  mix: { counts: Record<string, number>; squares: Record<string, number> | null },
  c: RunLabelCount,
): void {
  mix.counts[c.label] = (mix.counts[c.label] ?? 0) + c.count
  if (mix.squares !== null && c.squares !== null) mix.squares[c.label] = (mix.squares[c.label] ?? 0) + c.squares
  else mix.squares = null
}

/**
 * Drift per question: for each run (oldest first) its label shares and the total variation
 * distance from the previous run's shares; `alert` when that change is above the threshold, and
 * `significant` when, besides, a test of the two runs' counts says it is not noise.
 */
export function driftByQuestion(
  counts: readonly RunLabelCount[],
  questions?: readonly string[],
): Record<string, DriftEntry[]> {
  const byQuestion = new Map<
    string,
    Map<string, { rows: number; counts: Record<string, number>; squares: Record<string, number> | null }>
  >()
  for (const name of questions ?? []) byQuestion.set(name, new Map())
  for (const c of counts) {
    if (questions && !questions.includes(c.question)) continue
    const runs = byQuestion.get(c.question) ?? new Map()
    byQuestion.set(c.question, runs)
    const run = runs.get(c.run_id) ?? { rows: c.rows, counts: {}, squares: {} }
    runs.set(c.run_id, run)
    addCount(run, c)
  }
  const out: Record<string, DriftEntry[]> = {}
  for (const [question, runs] of byQuestion) {
    let previous: (LabelMix & { shares: Record<string, number> }) | null = null
    out[question] = [...runs].map(([run_id, run]) => {
      const mix = shares(run.counts)
      const change = previous === null ? null : totalVariation(previous.shares, mix)
      const alert = change !== null && change > DRIFT_ALERT
      const noise = noiseOf(previous, run, alert)
      previous = { shares: mix, counts: run.counts, squares: run.squares }
      return { run_id, rows: run.rows, shares: mix, change, alert, ...noise }
    })
  }
  return out
}
