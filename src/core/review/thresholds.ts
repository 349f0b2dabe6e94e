import type { AnswerCell } from '../../ports/answer-store.ts'
import { ruleHolds } from '../judge/route.ts'
import { gridFloor } from '../tally/grid.ts'
import type { ActRule, Comparison } from '../types.ts'
import { wilsonInterval } from '../stats/wilson.ts'
import type { QuestionSample } from './sample-design.ts'
import { stratifiedProportion, type Cell } from '../stats/stratified-proportion.ts'
import { STRATA, stratumOf } from './strata.ts'

/** The precision a suggested threshold must reach, at the lower end of its 95% interval, by default. */
export const DEFAULT_TARGET = 0.95

/** A route's figures at one threshold. */
export interface ThresholdFigures {
  readonly threshold: number
  /** Answers the route takes at this threshold, and their share of all answers with its interval. */
  readonly routed: number
  readonly share: number
  readonly share_interval: readonly [number, number] | null
  /** Sampled rows the route takes, with a true label. */
  readonly sampled: number
  /** Estimated share of the routed answers whose label is right, with its 95% interval; null when not estimable. */
  readonly precision: number | null
  readonly interval: readonly [number, number] | null
}

/** The thresholds of one `act` rule that names a label and tests `p` or `margin` from below. */
export interface RouteThresholds {
  readonly question: string
  readonly route: string
  /** The rule's place in the question's `act` list, from 0. */
  readonly rule: number
  readonly labels: readonly string[]
  readonly variable: 'p' | 'margin'
  /** The rule as the spec has it. */
  readonly current: ThresholdFigures & { readonly comparison: string }
  /** The lowest threshold whose lower bound reaches the target (see suggestThreshold); null when none does. */
  readonly suggested: ThresholdFigures | null
  readonly target: number
  /** Every threshold tried, strictest first. */
  readonly table: readonly ThresholdFigures[]
}

/** What thresholds are computed from: a question's rules, answers and sample design. */
export interface ThresholdInput {
  readonly question: string
  readonly rules: readonly ActRule[]
  readonly cells: readonly AnswerCell[]
  readonly sampleDesign: QuestionSample
  readonly unsureBelow: number
  readonly target: number
}

/** Whether a rule can be tuned: it names a label and tests p or margin with >= or >. */
export function tunable(rule: ActRule): 'p' | 'margin' | null {
  if (!rule.when.label) return null
  for (const variable of ['p', 'margin'] as const) {
    const c = rule.when[variable]
    if (c && (c.op === '>=' || c.op === '>')) return variable
  }
  return null
}

/** The thresholds of every tunable rule of a question. */
export function routeThresholds(input: ThresholdInput): RouteThresholds[] {
  return input.rules.flatMap((rule, index) => {
    const variable = tunable(rule)
    return variable === null ? [] : [thresholdsOf(input, index, variable)]
  })
}

function thresholdsOf(input: ThresholdInput, index: number, variable: 'p' | 'margin'): RouteThresholds {
  const rule = input.rules[index]
  // Hundredths, so that a cell of the tally lies wholly on one side of each (core/tally/grid.ts).
  const candidates = [
    ...new Set(input.cells.filter((c) => rule.when.label!.includes(c.label)).map((c) => gridFloor(c[variable]))),
  ].sort((a, b) => b - a)
  const table = candidates.map((t) => figuresAt(input, index, variable, { op: '>=', value: t, text: `>= ${t}` }))
  const current = rule.when[variable]!
  return {
    question: input.question,
    route: rule.route,
    rule: index,
    labels: rule.when.label!,
    variable,
    current: { ...figuresAt(input, index, variable, current), comparison: current.text },
    suggested: suggestThreshold(input, index, variable, table),
    target: input.target,
    table,
  }
}

/**
 * The suggested threshold, by fixed-sequence testing: thresholds are tried strictest first, those
 * whose bound could not reach the target even with every sampled row right are passed over (that
 * reads no label, so the order is fixed before any is), and the walk stops at the first whose 95%
 * lower bound falls short. The threshold it reaches last meets the target with 95% confidence as a
 * whole, not only each threshold on its own.
 */
export function suggestThreshold(
  input: ThresholdInput,
  index: number,
  variable: 'p' | 'margin',
  table: readonly ThresholdFigures[],
): ThresholdFigures | null {
  let suggested: ThresholdFigures | null = null
  for (const row of table) {
    const comparison: Comparison = { op: '>=', value: row.threshold, text: `>= ${row.threshold}` }
    const best = stratifiedProportion(cellsAt(input, index, variable, comparison, true))
    if (suggested === null && (best === null || best.interval[0] < input.target)) continue
    if (row.interval === null || row.interval[0] < input.target) break
    suggested = row
  }
  return suggested
}

function figuresAt(
  input: ThresholdInput,
  index: number,
  variable: 'p' | 'margin',
  comparison: Comparison,
): ThresholdFigures {
  const cells = cellsAt(input, index, variable, comparison, false)
  const total = input.cells.reduce((n, c) => n + c.count, 0)
  const routed = cells.reduce((n, c) => n + c.size, 0)
  const result = stratifiedProportion(cells)
  return {
    threshold: comparison.value,
    routed,
    share: total === 0 ? 0 : routed / total,
    share_interval: wilsonInterval(routed, total),
    sampled: cells.reduce((n, c) => n + c.counted, 0),
    precision: result?.point ?? null,
    interval: result?.interval ?? null,
  }
}

/** The route's cells, one per stratum: its answers and sampled rows there; `optimistic` counts every row right. */
function cellsAt(
  input: ThresholdInput,
  index: number,
  variable: 'p' | 'margin',
  comparison: Comparison,
  optimistic: boolean,
): Cell[] {
  const rules = input.rules.map((r, i) => (i === index ? { ...r, when: { ...r.when, [variable]: comparison } } : r))
  // A row is the rule's when the rule is the first that holds for it: earlier rules take theirs first.
  const routed = (reading: { label: string; p: number; margin: number }) =>
    rules.findIndex((r) => ruleHolds(r, reading)) === index
  return STRATA.map((stratum) => {
    const size = input.cells
      .filter((c) => stratumOf(c, input.unsureBelow) === stratum && routed(c))
      .reduce((n, c) => n + c.count, 0)
    const rows = input.sampleDesign.strata[stratum].rows.filter((r) => routed(r))
    const successes = optimistic ? rows.length : rows.filter((r) => r.correct).length
    return { size, sampled: rows.length, counted: rows.length, successes }
  })
}
