import { DRIFT_ALERT } from '../../core/reports/drift.ts'
import { distance } from '../../format.ts'
import type { LikeFilter } from '../../core/reports/like-runs.ts'
import { driftOfSpec, likeDriftOfSpec } from '../../app/runs.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath } from '../args.ts'
import { likeDriftText } from '../drift-text.ts'
import { mix, table } from '../text.ts'
import { defineCommand } from '../command.ts'
import { withSession } from '../shared.ts'

/** The options `judge drift` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  command: { type: 'string' },
  source: { type: 'string' },
  completed: { type: 'boolean', default: false },
  'every-run': { type: 'boolean', default: false },
} as const

/** `judge drift`: each question's label mix per run, and its changes on the same data and on other data. */
export const HELP = helpText(
  'judge drift <spec-or-folder> [--command C] [--source S] [--completed] [--every-run] [--node NAME] [--json]',
  'Shows, per question, the label mix of each run (oldest first) and two changes, each the total\n' +
    'variation distance from an earlier complete run: on the same data, from the previous run of the\n' +
    "same command and source (like runs: the model moved), split into the model's part and the data's\n" +
    'when the engine reported another model; and on other data, from the previous run of the same\n' +
    `command on another source (the data moved). A change above ${DRIFT_ALERT.toFixed(2)} between complete runs is\n` +
    'flagged. Failed runs are shown, never compared against. --json gives GET /v1/drift: every run\n' +
    'against the previous one with both changes added, or with --command, --source or --completed the\n' +
    'like runs.',
  [
    { flag: '--command C', text: 'only runs of this command: run, test or replay' },
    { flag: '--source S', text: 'only runs of this source: a data file as recorded, answer key, kept rows of X' },
    { flag: '--completed', text: 'only complete runs (failed runs are otherwise shown)' },
    { flag: '--every-run', text: "every run against the previous one, whatever it ran on (GET /v1/drift's meaning)" },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge drift`; returns the exit status. */
export const driftCommand = defineCommand('drift', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  return withSession(io, onePath('drift', positionals), options, async (session) => {
    const [spec] = selectJudgments(session.project, values.node, 'one')
    const filter: LikeFilter = {
      command: values.command ?? null,
      source: values.source ?? null,
      completed: values.completed,
    }
    const filtered = values.command !== undefined || values.source !== undefined || values.completed
    if (values.json) {
      const drift = filtered
        ? likeDriftOfSpec(session.runtime, session.project, spec, filter)
        : driftOfSpec(session.runtime, session.project, spec)
      io.stdout.write(JSON.stringify(drift, null, 2) + '\n')
      return 0
    }
    if (!values['every-run']) {
      io.stdout.write(likeDriftText(spec.name, likeDriftOfSpec(session.runtime, session.project, spec, filter)))
      return 0
    }
    for (const [question, entries] of Object.entries(driftOfSpec(session.runtime, session.project, spec))) {
      io.stdout.write(`${spec.name}.${question}: every run against the previous one\n`)
      if (entries.length === 0) {
        io.stdout.write('  no runs yet\n')
        continue
      }
      const rows = entries.map((e) => [
        e.run_id,
        String(e.rows),
        e.change === null ? '-' : distance(e.change),
        e.alert ? 'ALERT' : '',
        mix(e.shares),
      ])
      io.stdout.write(table(['run', 'rows', 'change', '', 'label mix'], rows).replace(/^(?=.)/gm, '  '))
    }
    return 0
  })
})
