import { DRIFT_ALERT } from '../../core/reports/drift.ts'
import { driftOfSpec } from '../../app/runs.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import type { RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, parseCommand } from '../args.ts'
import { mix, table } from '../text.ts'
import type { CliIo } from '../io.ts'
import { withSession } from '../shared.ts'

/** The options `judge drift` parses; its help and docs/cli.md describe each. */
export const OPTIONS = COMMON_OPTIONS

/** `judge drift`: each question's label mix per run and its change. */
export const HELP = helpText(
  'judge drift <spec-or-folder> [--node NAME] [--json]',
  `Shows, per question, the label mix of each run (oldest first) and the total variation distance\nfrom the previous run; a change above ${DRIFT_ALERT.toFixed(2)} is flagged. The same data as GET /v1/drift.`,
  COMMON_DOCS,
)

/** Runs `judge drift`; returns the exit status. */
export async function driftCommand(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number> {
  const { values, positionals } = parseCommand('drift', argv, OPTIONS)
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  return withSession(io, onePath('drift', positionals), options, async (session) => {
    const [spec] = selectJudgments(session.project, values.node, 'one')
    const drift = driftOfSpec(session.runtime, session.project, spec)
    if (values.json) {
      io.stdout.write(JSON.stringify(drift, null, 2) + '\n')
      return 0
    }
    for (const [question, entries] of Object.entries(drift)) {
      io.stdout.write(`${spec.name}.${question}\n`)
      if (entries.length === 0) {
        io.stdout.write('  no runs yet\n')
        continue
      }
      const rows = entries.map((e) => [e.run_id, String(e.rows), e.change === null ? '-' : e.change.toFixed(3), e.alert ? 'ALERT' : '', mix(e.shares)])
      io.stdout.write(table(['run', 'rows', 'change', '', 'label mix'], rows).replace(/^(?=.)/gm, '  '))
    }
    return 0
  })
}
