import type { ExpiredReport } from '../app/forget-expired.ts'
import type { ForgetReport } from '../app/forget.ts'
import type { ForgottenRow, JobResult } from '../app/forget-job.ts'
import { table } from './text.ts'
import { plural } from '../format.ts'

/** What `judge forget` prints: the rows found, what went (or would), what stays, and what judge cannot edit. */
export function forgetText(report: ForgetReport): string {
  if (report.states.length === 0)
    return `judge keeps nothing of these rows: nothing to forget\n${keyNote(report.key_files)}`
  return (
    rowsTable(report.states) +
    summary(report.dry_run, plural(report.states.length, 'row'), report) +
    stays(report.dry_run) +
    keyNote(report.key_files) +
    logNote(report.log_cleared)
  )
}

/** What `judge forget --expired` prints: per judgment that sets retain_days, what went (or would). */
export function expiredText(report: ExpiredReport, path: string): string {
  if (report.judgments.length === 0) return `no judgment of ${path} sets retain_days: nothing expires\n`
  return report.judgments
    .map((j) => {
      const head = `${j.judgment} (retain_days ${j.retain_days}: what is older than ${j.before})`
      const body =
        j.states.length === 0
          ? `${head}: nothing has expired\n`
          : `${head}:\n${rowsTable(j.states)}${summary(report.dry_run, `the expired copies of ${plural(j.states.length, 'row')}`, j)}`
      return body + logNote(j.log_cleared)
    })
    .join('')
}

function rowsTable(rows: readonly ForgottenRow[]): string {
  return table(
    ['state', 'values', 'kept rows', 'reviews-file lines'],
    rows.map((r) => [r.state_hash, r.values ? 'yes' : 'no', String(r.kept_rows), String(r.review_lines)]),
  )
}

function summary(
  dryRun: boolean,
  what: string,
  result: JobResult & {
    readonly removed: { readonly values: number; readonly kept_rows: number; readonly review_lines: number }
  },
): string {
  const { removed } = result
  const files = result.reviews_files.map((f) => f.file).join(', ')
  const parts = [
    removed.values > 0 ? `the values of ${plural(removed.values, 'row')} in the store` : '',
    removed.kept_rows > 0 ? plural(removed.kept_rows, 'kept row') : '',
    removed.review_lines > 0 ? `the state of ${plural(removed.review_lines, 'reviews-file line')} (${files})` : '',
  ].filter((p) => p !== '')
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]
  return dryRun
    ? `would forget ${what}: ${list}; nothing was removed (give --yes to forget)\n`
    : `forgot ${what}: ${list}\n`
}

function stays(dryRun: boolean): string {
  return `Answers, shadow pairs, runs, label counts and verdicts ${dryRun ? 'would stay' : 'stay'}, by hash, with their figures: a forgotten row judged again is a cache hit, and its values are stored again only when an answer is asked for it, a request keeps it (log) or a verdict is given on it.\n`
}

function keyNote(keys: readonly string[]): string {
  return keys.length === 0
    ? ''
    : `The answer key ${keys.join(', ')} holds one of these rows: judge never edits a key; remove the row from it yourself.\n`
}

function logNote(cleared: boolean | null): string {
  return cleared === false
    ? 'warning: another process was reading the store, so its write-ahead log may still hold old copies; run the same forget again to empty it\n'
    : ''
}
