import type { LikeDrift } from '../app/runs.ts'
import type { LikeDriftEntry } from '../core/reports/like-runs.ts'
import { DRIFT_ALERT } from '../core/reports/drift.ts'
import { distance, percent, pValue } from '../format.ts'
import { mix, table } from './text.ts'

/** A like-runs series by its command and source: "`run` of messages.csv". */
export function seriesName(command: string, source: string): string {
  return command === '' ? 'runs recorded before commands and sources were' : `\`${command}\` of ${source}`
}

/** What a run's like-runs entry says it was compared with on the same data, where a change is the model moving. */
export function comparedWith(entry: LikeDriftEntry): string {
  const series = seriesName(entry.command, entry.source)
  if (entry.baseline === null) return `same data: first complete ${series}, nothing to compare with`
  const failed = entry.status === 'complete' ? '' : ' (this run failed: shown, never compared against, no alert)'
  return (
    `same data: compared with run ${entry.baseline}, the previous complete ${series}${failed}; ` +
    'a change here is the model (or a rewritten file) moving'
  )
}

/** What a run's entry says it was compared with on other data, where a change is the data moving; '' when nothing. */
export function comparedOnOtherData(entry: LikeDriftEntry): string {
  const other = entry.other_data
  if (other === null) return ''
  return (
    `other data: compared with run ${other.baseline}, the previous complete ` +
    `${seriesName(entry.command, other.source)}; a change here is the data moving`
  )
}

/** One question's line of a run summary: its mix, its change on the same data with its parts, and on other data. */
export function questionLine(question: string, entry: LikeDriftEntry): string {
  const same = entry.change === null ? '' : `; same data: change ${distance(entry.change)}${flag(entry)}`
  const other = entry.other_data
  const moved = other === null ? '' : `; other data: change ${distance(other.change)}${flag(other)}`
  return `  ${question}: ${mix(entry.shares)}${same}${partsText(entry)}${moved}`
}

/** "(drift alert, above 0.10, p < 0.001)", "(above 0.10 but within noise, p = 0.153)", or nothing below the line. */
function flag(e: Pick<LikeDriftEntry, 'alert' | 'significant' | 'p_value'>): string {
  const p = pValue(e.p_value)
  if (e.significant) return ` (drift alert, above ${DRIFT_ALERT.toFixed(2)}, ${p})`
  return e.alert ? ` (above ${DRIFT_ALERT.toFixed(2)} but within noise, ${p})` : ''
}

/**
 * The model and data parts of a change, when the model changed: "; model part 0.120 on 300 rows (12.0% flipped, p =
 * 0.002), data part 0.000".
 */
export function partsText(entry: LikeDriftEntry): string {
  if (entry.change === null || entry.model_change === 0) return ''
  if (entry.model_change === null) return "; the model's part unmeasured"
  const data = entry.data_change === null ? 'unmeasured' : distance(entry.data_change)
  return (
    `; model part ${distance(entry.model_change)} on ${entry.model_rows} rows ` +
    `(${percent(entry.model_flips ?? 0)} flipped${pText(entry.model_p_value)}), data part ${data}`
  )
}

/** `judge drift`'s text: per series of like runs, per question, each run against its baseline. */
export function likeDriftText(judgment: string, drift: LikeDrift): string {
  const series = new Set(Object.values(drift).flatMap((entries) => entries.map((e) => `${e.command}\0${e.source}`)))
  const out: string[] = []
  if (series.size === 0) return `${judgment}: no runs yet\n`
  for (const key of series) {
    const [command, source] = key.split('\0')
    out.push(`${judgment}: ${seriesName(command, source)}\n`)
    for (const [question, entries] of Object.entries(drift)) {
      const rows = entries.filter((e) => e.command === command && e.source === source).map(entryCells)
      if (rows.length === 0) continue
      out.push(`  ${question}\n`)
      out.push(
        table(
          [
            'run',
            'status',
            'rows',
            'model',
            'same data vs',
            'change',
            '',
            'model part',
            'data part',
            'other data vs',
            'change',
            '',
            'label mix',
          ],
          rows,
        ).replace(/^(?=.)/gm, '    '),
      )
    }
  }
  return out.join('')
}

function entryCells(e: LikeDriftEntry): string[] {
  const num = (n: number | null) => (n === null ? '-' : distance(n))
  return [
    e.run_id,
    e.status === 'complete' ? 'complete' : 'failed',
    String(e.rows),
    e.reported_model || '-',
    e.baseline ?? '-',
    num(e.change),
    alertCell(e),
    e.model_change === null && e.baseline !== null ? '?' : num(e.model_change),
    num(e.data_change),
    e.other_data === null ? '-' : `${e.other_data.baseline} (${e.other_data.source})`,
    num(e.other_data?.change ?? null),
    e.other_data === null ? '' : alertCell(e.other_data),
    mix(e.shares),
  ]
}

function alertCell(e: Pick<LikeDriftEntry, 'alert' | 'significant'>): string {
  return e.alert && e.significant ? 'ALERT' : e.alert ? 'noise' : ''
}

/** ", p = 0.002" (", p < 0.001" when smaller); nothing without a p value. */
function pText(p: number | null): string {
  return p === null ? '' : `, ${pValue(p)}`
}
