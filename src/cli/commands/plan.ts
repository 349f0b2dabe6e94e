import { COMMON_DOCS, COMMON_OPTIONS, DATA_DOCS, helpText, onePath } from '../args.ts'
import { defineCommand } from '../command.ts'
import { planRows } from '../../app/plan.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import { dataSourceOf, planJson, planTable, withSession } from '../shared.ts'

/** The options `judge plan` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS, data: { type: 'string' }, delimiter: { type: 'string' } } as const

/** `judge plan`: what `run` would do, asking nothing. */
export const HELP = helpText(
  'judge plan <spec-or-folder> [--data FILE] [--delimiter C] [--node NAME] [--json]',
  'Shows what `judge run` would do, asking nothing: rows, distinct states, cached answers,\nanswers and requests to ask, and the estimated cost against JUDGE_MAX_COST.',
  [...DATA_DOCS, ...COMMON_DOCS],
)

/** Runs `judge plan`; returns the exit status. */
export const planCommand = defineCommand('plan', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  return withSession(io, onePath('plan', positionals), options, async (session) => {
    const specs = selectJudgments(session.project, values.node, 'all')
    const plans = await planRows(session.runtime, session.project, specs, dataSourceOf(io, values, specs))
    const cap = session.config.maxCost
    io.stdout.write(values.json ? JSON.stringify(planJson(plans, cap), null, 2) + '\n' : planTable(plans, cap))
    return 0
  })
})
