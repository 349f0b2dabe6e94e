import { listRuns } from '../../app/runs.ts'
import type { RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, parseCommand } from '../args.ts'
import { table, usd } from '../text.ts'
import type { CliIo } from '../io.ts'
import { withSession } from '../shared.ts'

/** The options `judge runs` parses; its help and docs/cli.md describe each. */
export const OPTIONS = COMMON_OPTIONS

/** `judge runs`: the runs of a spec or folder, newest first. */
export const HELP = helpText(
  'judge runs <spec-or-folder> [--node NAME] [--json]',
  'Lists the runs of the judgments, newest first, at most 50, with what each ran on (command,\nsource, node, the model the engine reported): the same data as GET /v1/runs.',
  COMMON_DOCS,
)

/** Runs `judge runs`; returns the exit status. */
export async function runsCommand(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number> {
  const { values, positionals } = parseCommand('runs', argv, OPTIONS)
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  return withSession(io, onePath('runs', positionals), options, async (session) => {
    const runs = listRuns(session.runtime, session.project, values.node)
    if (values.json) {
      io.stdout.write(JSON.stringify(runs, null, 2) + '\n')
      return 0
    }
    if (runs.length === 0) {
      io.stdout.write('no runs yet\n')
      return 0
    }
    const rows = runs.map((r) => [r.run_id, r.judgment, r.command || '-', r.source || '-', String(r.rows), String(r.states), String(r.asked), usd(r.cost),
      r.model, r.reported_model || '-', r.spec_hash, r.git_sha, r.status])
    io.stdout.write(table(['run', 'judgment', 'command', 'source', 'rows', 'states', 'asked', 'cost', 'model', 'reported', 'spec', 'commit', 'status'], rows))
    return 0
  })
}
