import type { AccuracyReport } from '../app/accuracy.ts'
import type { RouteThresholds, ThresholdFigures } from '../core/review/thresholds.ts'
import { answeredFromText, TEXT_ONLY_WARNING } from '../core/tally/sources.ts'
import { percent } from '../format.ts'
import { table } from './text.ts'

/**
 * The thresholds of a report as `judge calibrate --json` prints them: the target, every tunable rule, the act block.
 */
export function calibrateJson(report: AccuracyReport) {
  return {
    target: report.target,
    thresholds: Object.values(report.questions).flatMap((q) => q.thresholds),
    act: report.act,
  }
}

const between = (i: readonly [number, number] | null) => (i === null ? '-' : `${percent(i[0])} to ${percent(i[1])}`)

function figures(f: ThresholdFigures): string {
  const precision =
    f.precision === null ? 'precision not estimable' : `precision ${percent(f.precision)} (${between(f.interval)})`
  return `${precision}, routes ${percent(f.share)} of answers (${f.routed})`
}

/** One tunable rule: where it stands, the suggestion, and the thresholds around them. */
export function routeLines(t: RouteThresholds): string[] {
  const head =
    `  ${t.question} -> ${t.route} (label ${t.labels.join(' or ')}, ${t.variable}): ` +
    `now "${t.current.comparison}": ${figures(t.current)}`
  const suggestion = t.suggested
    ? `    suggested "${t.variable} >= ${t.suggested.threshold}": ${figures(t.suggested)}`
    : `    no threshold reaches ${percent(t.target)} at the lower end of its 95% interval: ` +
      'review more rows (docs/review.md)'
  // Every fifth hundredth, and the rows the suggestion and the spec's own threshold stand on.
  const shown = t.table.filter(
    (r) =>
      Math.round(r.threshold * 100) % 5 === 0 ||
      r.threshold === t.suggested?.threshold ||
      r.threshold === t.current.threshold,
  )
  const rows = shown.map((r) => [
    `${r.threshold}${r.threshold === t.suggested?.threshold ? ' *' : ''}`,
    percent(r.share),
    String(r.sampled),
    r.precision === null ? '-' : percent(r.precision),
    between(r.interval),
  ])
  const text =
    rows.length === 0
      ? []
      : table([t.variable, 'routes', 'sampled', 'precision', '95% interval'], rows)
          .trimEnd()
          .split('\n')
          .map((l) => `    ${l}`)
  return [head, suggestion, ...text]
}

/** The human report of `judge calibrate`: per judgment its tunable rules and the act block to paste. */
export function calibrateReport(reports: readonly AccuracyReport[], specFiles: ReadonlyMap<string, string>): string {
  const lines: string[] = []
  for (const report of reports) {
    const thresholds = Object.values(report.questions).flatMap((q) => q.thresholds)
    lines.push(
      `${report.judgment}: thresholds whose precision is at least ${percent(report.target)} at the lower end ` +
        'of the 95% interval',
    )
    for (const [name, q] of Object.entries(report.questions))
      if (answeredFromText(q.sources)) lines.push(`  ${name}: ${TEXT_ONLY_WARNING}`)
    if (thresholds.length === 0)
      lines.push('  no act rule names a label and tests p or margin from below: nothing to tune')
    for (const t of thresholds) lines.push(...routeLines(t))
    if (report.act !== null && thresholds.length > 0)
      lines.push(
        `  the act block to paste into ${specFiles.get(report.judgment) ?? 'the spec'}:`,
        ...report.act
          .trimEnd()
          .split('\n')
          .map((l) => `    ${l}`),
      )
  }
  return lines.join('\n') + '\n'
}
