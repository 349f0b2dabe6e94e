import { COMMON_DOCS, COMMON_OPTIONS, DATA_DOCS, helpText, onePath } from '../args.ts'
import { defineCommand } from '../command.ts'
import { lastRunFits } from '../../app/fit.ts'
import { planJuries } from '../../app/plan.ts'
import { selectJudgments, withDependencies } from '../../core/judge/select.ts'
import { lastFitText } from '../fit-text.ts'
import { answerModels } from '../../app/answer-models.ts'
import { modelText } from '../model-text.ts'
import { dataSourceOf, planJson, planTable, withSession } from '../shared.ts'
import { juryPlanText, withJury } from '../plan-jurors-text.ts'
import { refuseJuryBatch } from '../../core/batch/jury.ts'

/** The options `judge plan` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  data: { type: 'string' },
  delimiter: { type: 'string' },
  batch: { type: 'boolean', default: false },
} as const

/** `judge plan`: what `run` would do, asking nothing. */
export const HELP = helpText(
  'judge plan <spec-or-folder> [--data FILE] [--delimiter C] [--batch] [--node NAME] [--json]',
  'Shows what `judge run` would do, asking nothing: rows, distinct states, ' +
    'cached answers,\nanswers and requests to ask, and the estimated cost against JUDGE_MAX_COST; ' +
    "for a jury (models:),\neach juror apart at its engine's price, and their total; " +
    'then any question the last run\nfound not to fit its rows.',
  [
    ...DATA_DOCS,
    { flag: '--batch', text: 'estimate at the batch price (ENGINE_BATCH_PRICE_PER_MTOK), as `judge run --batch` asks' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge plan`; returns the exit status. */
export const planCommand = defineCommand('plan', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  return withSession(io, onePath('plan', positionals), options, async (session) => {
    const specs = selectJudgments(session.project, values.node, 'all')
    if (values.batch) refuseJuryBatch(withDependencies(session.project, specs), 'plan')
    const price = values.batch ? session.config.engine.batchPricePerMtok : undefined
    const source = dataSourceOf(io, values, specs)
    const { plans, juries } = await planJuries(session.runtime, session.project, specs, source, price)
    const cap = session.config.maxCost
    const free = session.runtime.engine?.spendsNothing === true
    const fits = new Map(
      lastRunFits(session.runtime, session.project, withDependencies(session.project, specs)).map((f) => [
        f.judgment,
        f,
      ]),
    )
    if (values.json)
      io.stdout.write(
        JSON.stringify(
          planJson(plans, cap, free).map((p) => withJury({ ...p, last_run_fit: fits.get(p.judgment) ?? null }, juries)),
          null,
          2,
        ) + '\n',
      )
    else
      io.stdout.write(
        modelText(session.project.selected.map((s) => answerModels(session.runtime, session.project, s))) +
          planTable(plans, cap, free, juries) +
          juryPlanText(juries) +
          lastFitText([...fits.values()]),
      )
    return 0
  })
})
