import { DRIFT_ALERT } from '../core/reports/drift.ts'
import type { QuestionReplay, ReplayReport } from '../core/reports/replay.ts'
import type { State } from '../core/types.ts'
import { distance, percent, plural } from '../format.ts'
import { costText, mix, table } from './text.ts'

// A state longer than this is cut in the human report; --json carries it whole.
const STATE_WIDTH = 100

/** The replay report for a person: what was judged and spent, then each question's comparison. */
export function replayText(report: ReplayReport): string {
  const { live, candidate } = report
  const lines = [
    `candidate ${candidate.judgment} against ` +
      `live ${live.judgment}: ${plural(report.kept, 'kept row')}, ${report.replayed} replayed`,
    `  live       spec ${live.spec_hash}, model ${live.model}`,
    `  candidate  spec ${candidate.spec_hash}, model ${candidate.model}`,
  ]
  if (report.kept === 0 || report.run === null) {
    lines.push(
      `no rows are kept for ${live.judgment}, so there is nothing to replay: send live requests with "log": ` +
        'true (see docs/shadow.md).',
    )
    lines.push('Nothing was judged and no run was recorded.')
    return lines.join('\n') + '\n'
  }
  const { totals, run } = report
  lines.push(
    `${costText(totals.cost, candidate.model)}: ${totals.cached} answers cached, ${totals.asked} asked ` +
      `in ${plural(totals.requests, 'request')}; run ${run.run_id} ${run.status}`,
  )
  for (const [name, q] of Object.entries(report.questions)) lines.push('', ...questionLines(name, q))
  if (report.live_only.length > 0)
    lines.push('', `questions only the live judgment asks, not compared: ${report.live_only.join(', ')}`)
  if (report.candidate_only.length > 0)
    lines.push('', `questions only the candidate asks, not compared: ${report.candidate_only.join(', ')}`)
  return lines.join('\n') + '\n'
}

/** One question's comparison: agreement, mixes, confusion table and the rows that would change. */
export function questionLines(name: string, q: QuestionReplay): string[] {
  const lines: string[] = []
  if (q.agreement === null || q.distance === null) lines.push(`${name}: no rows compared`)
  else {
    const alert = q.distance > DRIFT_ALERT ? ` (above the ${DRIFT_ALERT.toFixed(2)} drift alert line)` : ''
    lines.push(
      `${name}: ${plural(q.rows, 'row')} compared, agreement ${percent(q.agreement)} (${q.agree} ` +
        `of ${q.rows}), mix distance ${distance(q.distance)}${alert}`,
    )
    lines.push(`  live mix       ${mix(q.live_mix)}`, `  candidate mix  ${mix(q.candidate_mix)}`)
    lines.push(...indent(confusionTable(q.confusion)))
    lines.push(q.changed === 0 ? '  no row would change' : `  ${changedHeading(q)}:`)
    for (const row of q.sample)
      lines.push(`    ${row.state_hash}  ${row.live} -> ${row.candidate}  ${stateText(row.state)}`)
  }
  if (q.live_missing > 0) {
    const verb = q.live_missing === 1 ? 'has' : 'have'
    lines.push(
      `  ${plural(q.live_missing, 'kept row')} ${verb} no live answer in the store (the live question or ` +
        `model changed since it was kept) and ${q.live_missing === 1 ? 'is' : 'are'} left out`,
    )
  }
  return lines
}

/** The confusion table: one line per live label, one column per candidate label. */
export function confusionTable(confusion: QuestionReplay['confusion']): string {
  const columns = [...new Set(Object.values(confusion).flatMap((row) => Object.keys(row)))]
  const rows = Object.entries(confusion).map(([label, row]) => [label, ...columns.map((c) => String(row[c] ?? 0))])
  return table(['live \\ candidate', ...columns], rows)
}

/** A state as one line of JSON, cut to STATE_WIDTH characters. */
export function stateText(state: State): string {
  const text = JSON.stringify(state)
  return text.length <= STATE_WIDTH ? text : `${text.slice(0, STATE_WIDTH - 1)}…`
}

function changedHeading(q: QuestionReplay): string {
  const rows = `${plural(q.changed, 'row')} would change`
  return q.sample.length < q.changed ? `${rows}; a sample of ${q.sample.length}` : rows
}

function indent(text: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
}
