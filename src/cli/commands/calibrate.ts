import { answerModels } from '../../app/answer-models.ts'
import { modelText } from '../model-text.ts'
import { basename } from 'node:path'
import { accuracyReport, accuracyTargets } from '../../app/accuracy.ts'
import { DEFAULT_TARGET } from '../../core/review/thresholds.ts'
import { UsageError } from '../../errors.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath } from '../args.ts'
import { calibrateJson, calibrateReport } from '../calibrate-text.ts'
import { defineCommand } from '../command.ts'
import { withSession } from '../shared.ts'

/** The options `judge calibrate` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS, target: { type: 'string' } } as const

/** `judge calibrate`: the lowest threshold of each act rule whose precision reaches the target. */
export const HELP = helpText(
  'judge calibrate <spec-or-folder> [--node NAME] [--target P] [--json]',
  'For each act rule that names a label and tests p or margin from below, ' +
    'finds the lowest threshold\nwhose precision (the share of the rows it routes that the model labels right) ' +
    'reaches the target\nat the lower end of its 95% interval, estimated from the review sample, ' +
    'with the share of answers\nit routes; then prints the act block to paste. Reads the store, key and reviews; ' +
    'asks nothing.',
  [{ flag: '--target P', text: `the precision to reach, from 0 to 1 (default ${DEFAULT_TARGET})` }, ...COMMON_DOCS],
)

/** Reads --target: a number above 0 and below 1. */
export function targetOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TARGET
  const value = /^(0?\.\d+|0|1)$/.test(raw.trim()) ? Number(raw) : NaN
  if (!(value > 0 && value < 1))
    throw new UsageError(`calibrate: --target must be a number between 0 and 1, such as 0.95, not "${raw}"`)
  return value
}

/** Runs `judge calibrate`; returns the exit status. */
export const calibrateCommand = defineCommand(
  'calibrate',
  OPTIONS,
  HELP,
  async ({ values, positionals }, io, options) => {
    const target = targetOf(values.target)
    return withSession(io, onePath('calibrate', positionals), options, async (session) => {
      const specs = accuracyTargets(session.project, values.node)
      const reports = await Promise.all(
        specs.map((spec) => accuracyReport(session.runtime, session.project, spec, target)),
      )
      if (values.json)
        io.stdout.write(
          JSON.stringify(Object.fromEntries(reports.map((r) => [r.judgment, calibrateJson(r)])), null, 2) + '\n',
        )
      else
        io.stdout.write(
          modelText(specs.map((s) => answerModels(session.runtime, session.project, s))) +
            calibrateReport(reports, new Map(specs.map((s) => [s.name, basename(s.file)]))),
        )
      return 0
    })
  },
)
