import type { CompareReport } from '../app/compare.ts'
import { CHANGE_WORDS } from '../core/compare/changes.ts'
import type { QuestionComparison } from '../core/compare/compare.ts'
import type { Requirement, Scope } from '../core/compare/gate.ts'
import { isSimulated } from '../core/engine-kinds.ts'
import { costWords, percent, plural, points, pValue } from '../format.ts'
import { costText } from './text.ts'

/** The comparison for a person: both specs, what was spent, then each question's figures and verdict. */
export function compareText(report: CompareReport): string {
  const { live, candidate } = report
  const cost = (x: number | null, model: string) =>
    x === null ? 'not estimable per 1,000 rows' : costWords(x, isSimulated(model), ' per 1,000 rows')
  const lines = [
    `candidate ${candidate.judgment} against live ${live.judgment} ` +
      `on ${report.source}: ${report.source.startsWith('kept rows') ? `${plural(report.kept, 'kept row')}, ` : ''}` +
      `${plural(report.compared, 'state')} compared`,
    `  live       spec ${live.spec_hash}, model ${live.model}, ${cost(report.cost_per_1000.live, live.model)}`,
    `  candidate  spec ${candidate.spec_hash}, ` +
      `model ${candidate.model}, ${cost(report.cost_per_1000.candidate, candidate.model)}`,
  ]
  if (report.totals)
    lines.push(
      `  this comparison: ${report.totals.cached} answers cached, ${report.totals.asked} asked, ` +
        costText(report.totals.cost, candidate.model) +
        (report.run ? `; run ${report.run.run_id} ${report.run.status}` : ''),
    )
  if (report.kept === 0 && report.source.startsWith('kept rows'))
    lines.push(`no rows are kept for ${live.judgment}: send live requests with "log": true (see docs/shadow.md).`)
  lines.push(...changeLines(report.questions))
  for (const [name, q] of Object.entries(report.questions)) lines.push('', ...questionLines(name, q))
  return lines.join('\n') + '\n'
}

/** Which questions the candidate changed, and how, and which it asks as the live spec does. */
export function changeLines(questions: CompareReport['questions']): string[] {
  const all = Object.entries(questions)
  if (all.length === 0) return []
  const changed = all.flatMap(([name, q]) =>
    q.changed ? [`${name} (${q.changes.map((c) => CHANGE_WORDS[c]).join(', ')})`] : [],
  )
  const unchanged = all.flatMap(([name, q]) => (q.changed ? [] : [name]))
  const why = ' (same wording, labels, model, state and store: the live answers by construction)'
  return [
    `changed: ${changed.join(', ') || 'none'}`,
    unchanged.length === 0 ? 'unchanged: none' : `unchanged: ${unchanged.join(', ')}${why}`,
  ]
}

/** One question: rows, the discordant share and flips, the difference and the verdict. */
export function questionLines(name: string, q: QuestionComparison): string[] {
  if (!q.changed)
    return [
      `${name}: unchanged, ${plural(q.rows, 'row')} compared: the same answers as live, a difference of exactly 0`,
    ]
  if (q.discordant === null) return [`${name}: no rows compared`]
  const flips = q.flips
    .slice(0, 5)
    .map((f) => `${f.live} -> ${f.candidate} ${f.rows}`)
    .join(', ')
  const lines = [
    `${name}: ${plural(q.rows, 'row')} compared, ${percent(q.discordant)} labelled differently ` +
      `(${q.discordant_rows})${flips ? `: ${flips}` : ''}`,
  ]
  if (q.difference !== null && q.interval !== null) {
    const p = q.p_value === null ? '' : `, ${pValue(q.p_value)}`
    const basis =
      q.method === 'discordant rows' ? `${q.reviewed} reviewed` : `${q.paired?.rows ?? 0} rows with a known label`
    lines.push(
      `  accuracy difference (candidate - live) ${points(q.difference)}, ` +
        `95% interval ${points(q.interval[0])} to ${points(q.interval[1])}${p} ` +
        `(${q.method}, ${basis})`,
    )
  }
  if (q.rows_difference !== null)
    lines.push(
      `  on these ${plural(q.rows, 'row')} exactly ${points(q.rows_difference)} ` +
        `(${q.discordant_rows === 0 ? 'none differ' : 'every row they differ on has a known label'}); ` +
        'the interval is for the traffic they sample',
    )
  const settle =
    q.reviews_needed > 0
      ? `; ${plural(q.reviews_needed, 'more discordant row')} to review${q.next ? ` (next ${q.next})` : ''}`
      : ''
  lines.push(`  verdict: ${q.verdict}${settle}`)
  return lines
}

/** What `--require` decided about the changed questions (`judged`): met, met with nothing changed, or each failure. */
export function gateText(
  gate: { require: Requirement; scope: Scope; margin: number },
  judged: readonly string[],
  failures: readonly string[],
): string {
  const { require, scope, margin } = gate
  if (judged.length === 0)
    return '\ngate: met: no question changed, so every answer is the live one; nothing for --require to judge\n'
  if (failures.length === 0)
    return (
      `\ngate: every changed question (${judged.join(', ')}) is ${require} ` +
      `(margin ${margin}) ${scope === 'rows' ? 'on the compared rows' : 'with 95% confidence'}\n`
    )
  const about = scope === 'rows' ? 'on the compared rows' : 'about traffic'
  return `\ngate: not met (${require}, margin ${margin}, ${about}):\n${failures.map((f) => `  ${f}`).join('\n')}\n`
}
