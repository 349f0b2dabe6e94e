import { pruneRunStates, type PrunedRuns } from '../../app/run-prune.ts'
import { listRuns } from '../../app/runs.ts'
import { runningOf } from '../../app/batch/running.ts'
import { DEFAULT_KEEP } from '../../core/reports/run-prune.ts'
import { isSimulated } from '../../core/engine-kinds.ts'
import { UsageError } from '../../errors.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, positiveInt } from '../args.ts'
import { table } from '../text.ts'
import { runningText } from '../running-text.ts'
import { sourcesLines } from '../sources-text.ts'
import { pathFrom } from '../invocation.ts'
import { defineCommand } from '../command.ts'
import { withSession } from '../shared.ts'
import { costWords, plural } from '../../format.ts'

/** The options `judge runs` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  prune: { type: 'boolean', default: false },
  keep: { type: 'string' },
  yes: { type: 'boolean', default: false },
} as const

/** `judge runs`: the runs of a spec or folder, newest first; pruning of old runs' row lists. */
export const HELP = helpText(
  'judge runs <spec-or-folder> [--prune [--keep N] [--yes]] [--node NAME] [--json]',
  'Lists the runs of the judgments, newest first, at most 50, with what each ran on (command,\n' +
    'source, node, the model the engine reported): the same data as GET /v1/runs. Above them, the\n' +
    'runs whose batches are pending at the provider (the bulk lane), as running, with their\n' +
    'request counts as last seen (not in --json: judge batches --json). --prune deletes\n' +
    'the row lists (the states each run judged) of all but the newest N runs of each series of like\n' +
    'runs and its newest complete run; run records and label counts, and so drift, stay. A dry run\n' +
    'unless --yes is given.',
  [
    { flag: '--prune', text: 'show the runs whose row lists would be deleted (a dry run)' },
    { flag: '--keep N', text: `with --prune: row lists kept per series of like runs (default ${DEFAULT_KEEP})` },
    { flag: '--yes', text: 'with --prune: delete them' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge runs`; returns the exit status. */
export const runsCommand = defineCommand('runs', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  if (!values.prune && (values.yes || values.keep !== undefined)) {
    throw new UsageError(`${values.yes ? '--yes' : '--keep'} goes with --prune; give --prune to prune run row lists`)
  }
  const keep = positiveInt('keep', values.keep, DEFAULT_KEEP)
  return withSession(io, onePath('runs', positionals), options, async (session) => {
    if (values.prune) {
      const pruned = pruneRunStates(session.runtime, session.project, values.node, keep, values.yes)
      const file = pathFrom(io.cwd, session.runtime.storeFileFor(session.project.dir))
      io.stdout.write(values.json ? JSON.stringify(pruned, null, 2) + '\n' : prunedText(pruned, file))
      return 0
    }
    const runs = listRuns(session.runtime, session.project, values.node)
    if (values.json) {
      io.stdout.write(JSON.stringify(runs, null, 2) + '\n')
      return 0
    }
    const running = runningOf(session.runtime, session.project, values.node)
    if (runs.length === 0 && running.length === 0) {
      io.stdout.write('no runs yet\n')
      return 0
    }
    io.stdout.write(runningText(running))
    if (runs.length === 0) return 0
    const rows = runs.map((r) => [
      r.run_id,
      r.judgment,
      r.command || '-',
      r.source || '-',
      String(r.rows),
      String(r.states),
      String(r.asked),
      costWords(r.cost, isSimulated(r.model)),
      r.model,
      r.reported_model || '-',
      r.spec_hash,
      r.git_sha,
      r.status,
    ])
    io.stdout.write(
      table(
        [
          'run',
          'judgment',
          'command',
          'source',
          'rows',
          'states',
          'asked',
          'cost',
          'model',
          'reported',
          'spec',
          'commit',
          'status',
        ],
        rows,
      ) + sourcesLines(runs),
    )
    return 0
  })
})

function prunedText(pruned: PrunedRuns, storeFile: string): string {
  const newest = pruned.keep === 1 ? 'the newest run' : `the newest ${pruned.keep} runs`
  const kept = `${newest} of each series and its newest complete run keep theirs`
  if (pruned.runs.length === 0) return `no run row lists to prune: ${kept}\n`
  const rows = pruned.runs.map((r) => [
    r.run_id,
    r.judgment,
    r.command || '-',
    r.source || '-',
    r.started_at,
    r.status,
    String(r.states),
  ])
  const listed = table(['run', 'judgment', 'command', 'source', 'started', 'status', 'states'], rows)
  const lists = plural(pruned.runs.length, 'run row list')
  return (
    listed +
    (pruned.dry_run
      ? `would delete ${plural(pruned.states, 'state')} in ${lists}; ${kept}; ` +
        `nothing was deleted (give --yes to delete)\n`
      : `deleted ${plural(pruned.deleted, 'state')} in ${lists}; run records and label counts stay. ` +
        `The file keeps its size until VACUUM (sqlite3 ${storeFile} 'VACUUM')\n`)
  )
}
