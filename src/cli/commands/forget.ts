import { resolve } from 'node:path'
import { forgetExpired } from '../../app/forget-expired.ts'
import { forgetRows } from '../../app/forget.ts'
import { parseMatch } from '../../core/forget/line-pick.ts'
import type { Row } from '../../core/types.ts'
import { UsageError } from '../../errors.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath } from '../args.ts'
import { defineCommand } from '../command.ts'
import { expiredText, forgetText } from '../forget-text.ts'
import { withSession } from '../shared.ts'

/** The options `judge forget` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  row: { type: 'string', multiple: true },
  rows: { type: 'string' },
  state: { type: 'string', multiple: true },
  match: { type: 'string', multiple: true },
  expired: { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
} as const

/** `judge forget`: erases every copy judge keeps of rows' values. */
export const HELP = helpText(
  'judge forget <spec-or-folder> (--row JSON | --rows FILE | --state HASH | --match COLUMN=VALUE)... ' +
    '[--yes] [--node NAME] [--json]\n' +
    '       judge forget <spec-or-folder> --expired [--yes] [--node NAME] [--json]',
  "Forgets rows: removes every copy judge keeps of their values (the store's states, and the state\n" +
    'cell of their lines in the reviews files of the project) and their rows kept for replay,\n' +
    "overwriting the bytes and emptying the store's log, and records what went in the store's forget log.\n" +
    'Answers, shadow pairs, runs and verdicts stay, by hash, with their figures. --expired applies the\n' +
    "specs' retain_days. A dry run that says what would go unless --yes is given. See docs/privacy.md.",
  [
    { flag: '--row JSON', text: 'a row as a JSON object of its columns; may be given again' },
    { flag: '--rows FILE', text: 'a CSV, TSV or JSON Lines file of rows' },
    { flag: '--state HASH', text: 'a state hash (16 hex digits); may be given again' },
    { flag: '--match C=V', text: 'every row whose state column C holds exactly V; may be given again' },
    { flag: '--expired', text: "what is older than each judgment's retain_days" },
    { flag: '--yes', text: 'forget it (without: a dry run)' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge forget`; returns the exit status: 0, or 1 when the store's log could not be emptied. */
export const forgetCommand = defineCommand('forget', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  const named = (['row', 'rows', 'state', 'match'] as const).filter((flag) => values[flag] !== undefined)
  if (values.expired && named.length > 0)
    throw new UsageError(`--expired forgets by age, not --${named[0]}; give one or the other`)
  if (!values.expired && named.length === 0)
    throw new UsageError(
      'name the rows to forget with --row, --rows, --state or --match, or give --expired; see judge forget --help',
    )
  const rows = (values.row ?? []).map(rowOf)
  const matches = (values.match ?? []).map(parseMatch)
  return withSession(io, onePath('forget', positionals), options, async (session) => {
    const base = { project: session.project, judgment: values.node, apply: values.yes }
    if (values.expired) {
      const report = await forgetExpired(session.runtime, { ...base, command: 'judge forget --expired' })
      io.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : expiredText(report, positionals[0]))
      return report.judgments.some((j) => j.log_cleared === false) ? 1 : 0
    }
    const rowsFile = values.rows === undefined ? undefined : { file: resolve(io.cwd, values.rows), label: values.rows }
    const command = `judge forget ${named.map((flag) => `--${flag}`).join(' ')}`
    const report = await forgetRows(session.runtime, {
      ...base,
      rows,
      rowsFile,
      states: values.state,
      matches,
      command,
    })
    io.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : forgetText(report))
    return report.log_cleared === false ? 1 : 0
  })
})

function rowOf(text: string): Row {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new UsageError(
      `--row takes a JSON object of the row's columns, such as '{"message": "..."}'; this is not JSON`,
    )
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--row takes a JSON object of the row\'s columns, such as \'{"message": "..."}\'')
  return value as Row
}
