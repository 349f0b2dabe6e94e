import type { CompareReport } from '../app/compare.ts'
import type { QuestionComparison } from '../core/compare/compare.ts'
import { percent, plural, points, pValue } from '../format.ts'
import { usd } from './text.ts'

/** The comparison for a person: both specs, what was spent, then each question's figures and verdict. */
export function compareText(report: CompareReport): string {
  const { live, candidate } = report
  const cost = (x: number | null) => (x === null ? 'not estimable' : usd(x))
  const lines = [
    `candidate ${candidate.judgment} against live ${live.judgment} on ${report.source}: ${report.source.startsWith('kept rows') ? `${plural(report.kept, 'kept row')}, ` : ''}${plural(report.compared, 'state')} compared`,
    `  live       spec ${live.spec_hash}, model ${live.model}, ${cost(report.cost_per_1000.live)} per 1,000 rows`,
    `  candidate  spec ${candidate.spec_hash}, model ${candidate.model}, ${cost(report.cost_per_1000.candidate)} per 1,000 rows`,
  ]
  if (report.totals)
    lines.push(
      `  this comparison: ${report.totals.cached} answers cached, ${report.totals.asked} asked, cost ${usd(report.totals.cost)}${report.run ? `; run ${report.run.run_id} ${report.run.status}` : ''}`,
    )
  if (report.kept === 0 && report.source.startsWith('kept rows'))
    lines.push(`no rows are kept for ${live.judgment}: send live requests with "log": true (see docs/shadow.md).`)
  for (const [name, q] of Object.entries(report.questions)) lines.push('', ...questionLines(name, q))
  return lines.join('\n') + '\n'
}

/** One question: rows, the discordant share and flips, the difference and the verdict. */
export function questionLines(name: string, q: QuestionComparison): string[] {
  if (q.discordant === null) return [`${name}: no rows compared`]
  const flips = q.flips
    .slice(0, 5)
    .map((f) => `${f.live} -> ${f.candidate} ${f.rows}`)
    .join(', ')
  const lines = [
    `${name}: ${plural(q.rows, 'row')} compared, ${percent(q.discordant)} labelled differently (${q.discordant_rows})${flips ? `: ${flips}` : ''}`,
  ]
  if (q.difference !== null && q.interval !== null) {
    const p = q.p_value === null ? '' : `, ${pValue(q.p_value)}`
    lines.push(
      `  accuracy difference (candidate - live) ${points(q.difference)}, 95% interval ${points(q.interval[0])} to ${points(q.interval[1])}${p} (${q.method}, ${q.method === 'discordant rows' ? `${q.reviewed} reviewed` : `${q.paired?.rows ?? 0} rows with a known label`})`,
    )
  }
  if (q.rows_difference !== null)
    lines.push(
      `  on these ${plural(q.rows, 'row')} exactly ${points(q.rows_difference)} (${q.discordant_rows === 0 ? 'none differ' : 'every row they differ on has a known label'}); the interval is for the traffic they sample`,
    )
  const settle =
    q.reviews_needed > 0
      ? `; ${plural(q.reviews_needed, 'more discordant row')} to review${q.next ? ` (next ${q.next})` : ''}`
      : ''
  lines.push(`  verdict: ${q.verdict}${settle}`)
  return lines
}
