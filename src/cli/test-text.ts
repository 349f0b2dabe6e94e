import type { Confusion, QuestionScore } from '../core/review/accuracy.ts'
import type { RunRecord, Spec } from '../core/types.ts'
import { percent } from '../format.ts'
import { plural, table, usd } from './text.ts'

/** The fields of a question's score that `judge test --json` prints, in order. */
export const SCORE_FIELDS = ['counted', 'correct', 'accuracy', 'interval', 'reviewed', 'needs_context', 'ambiguous', 'pending'] as const

/** Scores as `judge test --json` prints them: judgment -> question -> SCORE_FIELDS. */
export function scoresJson(scores: ReadonlyMap<string, Readonly<Record<string, QuestionScore>>>) {
  const out: Record<string, Record<string, Record<string, unknown>>> = {}
  for (const [judgment, questions] of scores) {
    out[judgment] = {}
    for (const [question, score] of Object.entries(questions)) {
      out[judgment][question] = Object.fromEntries(SCORE_FIELDS.map((f) => [f, score[f]]))
    }
  }
  return out
}

/** The questions of a judgment whose accuracy is below its `min_accuracy`, one sentence each. */
export function belowBar(spec: Spec, scores: Readonly<Record<string, QuestionScore>>): string[] {
  const bar = spec.minAccuracy
  if (bar === null) return []
  return Object.entries(scores)
    .filter(([, s]) => s.accuracy !== null && s.accuracy < bar)
    .map(([question, s]) => `${spec.name}.${question}: accuracy ${percent(s.accuracy!)} is below min_accuracy ${percent(bar)}`)
}

/** The human report: per judgment its run, then per question the accuracy, its bar and its confusion table. */
export function testReport(runs: readonly RunRecord[], specs: readonly Spec[], scores: ReadonlyMap<string, Readonly<Record<string, QuestionScore>>>): string {
  const lines: string[] = []
  for (const spec of specs) {
    const run = runs.find((r) => r.judgment === spec.name)
    if (run) {
      lines.push(`${spec.name}: ${plural(run.rows, 'row')} judged, ${run.cached} answers cached, ${run.asked} asked in ${plural(run.requests, 'request')}, cost ${usd(run.cost)}; ${run.status} (run ${run.run_id})`)
    }
    for (const [question, score] of Object.entries(scores.get(spec.name) ?? {})) lines.push(...questionLines(question, score, spec.minAccuracy))
  }
  return lines.join('\n') + '\n'
}

/** One question's accuracy, interval, bar, review counts and confusion table. */
export function questionLines(question: string, s: QuestionScore, bar: number | null): string[] {
  const counts = `reviewed ${s.reviewed}, context gap ${s.needs_context}, ambiguous ${s.ambiguous}, pending ${s.pending}`
  if (s.accuracy === null || s.interval === null) return [`  ${question}: no rows with a known label and an answer`, `    ${counts}`]
  const verdict = bar === null ? '' : s.accuracy < bar ? `; below min_accuracy ${percent(bar)}` : `; meets min_accuracy ${percent(bar)}`
  return [
    `  ${question}: accuracy ${percent(s.accuracy)} (${s.correct} of ${s.counted}), 95% interval ${percent(s.interval[0])} to ${percent(s.interval[1])}${verdict}`,
    `    ${counts}`,
    ...confusionLines(s.confusion),
  ]
}

/** A confusion table: a row per true label, a column per model label; labels that never occur are left out. */
export function confusionLines(confusion: Confusion): string[] {
  const used = confusion.labels.map((_, i) => confusion.counts[i].some((n) => n > 0) || confusion.counts.some((row) => row[i] > 0))
  const labels = confusion.labels.filter((_, i) => used[i])
  const rows = confusion.labels.flatMap((label, i) => (used[i] ? [[label, ...confusion.counts[i].filter((_, j) => used[j]).map(String)]] : []))
  const text = table(['true \\ model', ...labels], rows)
  return text.trimEnd().split('\n').map((line) => `    ${line}`)
}
