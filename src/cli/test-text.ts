import type { ScoredQuestion } from '../app/review-data.ts'
import type { TestedQuestion } from '../app/test-judgments.ts'
import type { Confusion } from '../core/review/accuracy.ts'
import type { AccuracyEstimate } from '../core/review/estimate.ts'
import { neededParts, neededTotal, type TargetFigures } from '../core/allocation/reviews-needed.ts'
import type { RunRecord, Spec } from '../core/types.ts'
import { fewRows, percent, plural } from '../format.ts'
import { agreementLines } from './agreement-text.ts'
import { juryLines } from './jury-text.ts'
import { costText, table } from './text.ts'

/**
 * The fields of a question's score that `judge test --json` prints, in order: those of docs/review.md (The accuracy
 * report), then `estimate`.
 */
export const SCORE_FIELDS = [
  'counted',
  'correct',
  'accuracy',
  'interval',
  'reviewed',
  'needs_context',
  'ambiguous',
  'pending',
] as const

type Scores = ReadonlyMap<string, Readonly<Record<string, TestedQuestion>>>

/**
 * Scores as `judge test --json` prints them: judgment -> question -> SCORE_FIELDS, `estimate`, `agreement`,
 * `accuracy_target` and `reviews_needed`.
 */
export function scoresJson(scores: Scores) {
  const out: Record<string, Record<string, Record<string, unknown>>> = {}
  for (const [judgment, questions] of scores) {
    out[judgment] = {}
    for (const [question, score] of Object.entries(questions)) {
      out[judgment][question] = {
        ...Object.fromEntries(SCORE_FIELDS.map((f) => [f, score[f]])),
        estimate: estimateJson(score.estimate),
        agreement: score.agreement,
        accuracy_target: score.target.accuracy_target,
        reviews_needed: score.target.reviews_needed,
        ...(score.jury && { jury: score.jury, jurors: score.jurors }),
      }
    }
  }
  return out
}

/** The estimate as `--json` prints it. */
export function estimateJson(e: AccuracyEstimate) {
  return {
    estimable: e.estimable,
    point: e.point,
    interval: e.interval,
    method: e.method,
    needed: e.needed,
    strata: e.strata,
    naive: e.naive,
  }
}

/** The figure min_accuracy is checked against: the estimate's point when estimable, else the pooled accuracy. */
export function barFigure(
  s: ScoredQuestion,
): { readonly name: 'estimate' | 'accuracy'; readonly value: number } | null {
  if (s.estimate.estimable && s.estimate.point !== null) return { name: 'estimate', value: s.estimate.point }
  return s.accuracy === null ? null : { name: 'accuracy', value: s.accuracy }
}

/** The questions of a judgment whose checked figure is below its `min_accuracy`, one sentence each. */
export function belowBar(spec: Spec, scores: Readonly<Record<string, ScoredQuestion>>): string[] {
  const bar = spec.minAccuracy
  if (bar === null) return []
  return Object.entries(scores).flatMap(([question, s]) => {
    const figure = barFigure(s)
    return figure && figure.value < bar
      ? [`${spec.name}.${question}: ${figure.name} ${percent(figure.value)} is below min_accuracy ${percent(bar)}`]
      : []
  })
}

/** What a judgment without `key:` is tested on, and what a key would add: one line. */
export const NO_KEY =
  "no answer key (key:): these figures rest on reviewers' verdicts alone; a key of rows with known labels " +
  'would count them in the pooled figure with no reviewer, put the rows the model gets wrong first in the ' +
  "review queue, and, drawn at random (key_sample: random), add them to the estimate's sample"

const LEGEND = [
  'estimate: the accuracy over every answer in the store, from the random sample of each stratum (docs/review.md).',
  'pooled: every row with a known label taken together, as if picked at random; ' +
    'rows picked for being hard pull it down.',
]

/**
 * The human report: per judgment its run, then per question the estimate, the pooled accuracy, its bar and its
 * confusion table.
 */
export function testReport(runs: readonly RunRecord[], specs: readonly Spec[], scores: Scores): string {
  const lines: string[] = []
  for (const spec of specs) {
    const run = runs.find((r) => r.judgment === spec.name)
    if (run) {
      lines.push(
        `${spec.name}: ${plural(run.rows, 'row')} judged, ${run.cached} answers cached, ${run.asked} asked ` +
          `in ${plural(run.requests, 'request')}, ${costText(run.cost, run.model)}; ${run.status} (run ${run.run_id})`,
      )
    }
    if (spec.key === null) lines.push(`${spec.name}: ${NO_KEY}`)
    for (const [question, score] of Object.entries(scores.get(spec.name) ?? {}))
      lines.push(...questionLines(question, score, spec.minAccuracy))
  }
  return [...lines, ...LEGEND].join('\n') + '\n'
}

/** One question's estimate, pooled accuracy, the bar on whichever is checked, review counts and confusion table. */
export function questionLines(question: string, s: TestedQuestion, bar: number | null): string[] {
  const counts =
    `reviewed ${s.reviewed}, context gap ${s.needs_context}, ` + `ambiguous ${s.ambiguous}, pending ${s.pending}`
  const checked = barFigure(s)?.name
  const verdict = (name: string, value: number) =>
    bar === null || checked !== name
      ? ''
      : value < bar
        ? `; below min_accuracy ${percent(bar)}`
        : `; meets min_accuracy ${percent(bar)}`
  const pooled =
    s.accuracy === null || s.interval === null
      ? 'pooled: no rows with a known label and an answer'
      : `pooled: accuracy ${percent(s.accuracy)} (${s.correct} of ${s.counted}), ` +
        `95% interval ${percent(s.interval[0])} to ${percent(s.interval[1])}${verdict('accuracy', s.accuracy)}`
  const target = targetText(s.target)
  return [
    `  ${question}: ${estimateText(s.estimate)}` +
      `${s.estimate.point === null ? '' : verdict('estimate', s.estimate.point)}`,
    ...(target ? [`    ${target}`] : []),
    `    ${pooled}`,
    `    ${counts}`,
    ...(s.counted > 0 ? confusionLines(s.confusion) : []),
    ...agreementLines(s.agreement),
    ...juryLines(s),
  ]
}

/** The accuracy target in words: reached, or the reviews per stratum it still takes; null without a target. */
export function targetText(t: TargetFigures): string | null {
  if (t.accuracy_target === null) return null
  const wanted = `accuracy_target ±${percent(t.accuracy_target)}`
  if (t.reviews_needed === null) return `${wanted}: no answers to estimate yet`
  const total = neededTotal(t.reviews_needed)
  if (total === 0) return `${wanted}: reached`
  const parts = neededParts(t.reviews_needed).map((p) => `${p.stratum} ${p.reviews}`)
  const mix = `${parts.join(', ')}; the queue offers them in that mix`
  return `${wanted}: about ${plural(total, 'more review')} to reach it (${mix})`
}

/**
 * The estimate in words: its point and interval over every answer, said first in plain words when
 * they rest on few rows (format.ts, fewRows), or what it takes to make one.
 */
export function estimateText(e: AccuracyEstimate): string {
  const answers = e.strata.reduce((n, s) => n + s.size, 0)
  if (answers === 0) return 'estimate: no answers in the store'
  if (!e.estimable || e.point === null || e.interval === null) {
    const waiting = e.strata
      .filter((s) => s.needed > 0)
      .map((s) => `${s.stratum}${s.next ? ` (next row ${s.next})` : ''}`)
    return (
      `estimate not estimable yet: review ${plural(e.needed, 'more row')} in rank ` +
      `order${waiting.length > 0 ? `: ${waiting.join(', ')}` : ''}`
    )
  }
  const sample = e.strata
    .filter((s) => s.size > 0)
    .map((s) => `${s.counted} of ${s.size} ${s.stratum}`)
    .join(', ')
  const few = fewRows(
    e.strata.reduce((n, s) => n + s.counted, 0),
    e.interval,
  )
  return (
    (few === null ? '' : `${few}; `) +
    `estimate ${percent(e.point)} over all ${plural(answers, 'answer')}, ` +
    `95% interval ${percent(e.interval[0])} to ${percent(e.interval[1])} (sampled ${sample})`
  )
}

/** A confusion table: a row per true label, a column per model label; labels that never occur are left out. */
export function confusionLines(confusion: Confusion): string[] {
  const used = confusion.labels.map(
    (_, i) => confusion.counts[i].some((n) => n > 0) || confusion.counts.some((row) => row[i] > 0),
  )
  const labels = confusion.labels.filter((_, i) => used[i])
  const rows = confusion.labels.flatMap((label, i) =>
    used[i] ? [[label, ...confusion.counts[i].filter((_, j) => used[j]).map(String)]] : [],
  )
  const text = table(['true \\ model', ...labels], rows)
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
}
