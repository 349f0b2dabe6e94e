import { checkStability, DEFAULT_SAMPLE } from '../../app/stability.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, positiveInt } from '../args.ts'
import { defineCommand } from '../command.ts'
import { createProgress } from '../progress.ts'
import { withSession } from '../shared.ts'
import { stabilityJson, stabilityReport } from '../stability-text.ts'

/** The options `judge stability` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS, sample: { type: 'string' }, concurrency: { type: 'string' } } as const

/** `judge stability`: how much the stored labels rest on the engine's run-to-run noise. */
export const HELP = helpText(
  'judge stability <spec-or-folder> [--sample N] [--concurrency N] [--node NAME] [--json]',
  "Asks the engine again a stratified random sample of each question's stored answers (half unsure,\nhalf " +
    'confident), past the cache, and keeps the re-asks apart: no cached answer is replaced or\nadded. ' +
    "Per question: the flip rate (labels that differ), the p jitter (mean |Δp| of the stored\nlabel's " +
    'probability) and the route flip rate, each with its 95% interval, ' +
    "and the answers whose p\nlies within the jitter of an act threshold. Keeps the engine's pace as a run does; " +
    'nothing is\nasked when the estimate is above JUDGE_MAX_COST (default $1.00), and the exit status is 2.',
  [
    {
      flag: '--sample N',
      text: `stored answers per question to ask again, split between the strata (default ${DEFAULT_SAMPLE})`,
    },
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge stability`; returns the exit status: 0 checked, 2 refused before asking. */
export const stabilityCommand = defineCommand(
  'stability',
  OPTIONS,
  HELP,
  async ({ values, positionals }, io, options) => {
    const sample = positiveInt('sample', values.sample, DEFAULT_SAMPLE)
    const concurrency = positiveInt('concurrency', values.concurrency, 8)
    return withSession(io, onePath('stability', positionals), options, async (session) => {
      let progress = createProgress(io.stderr, 0, 'asking again')
      const results = await checkStability(session.runtime, {
        project: session.project,
        judgment: values.node,
        sample,
        cap: session.config.maxCost,
        concurrency,
        signal: io.signal,
        onPlan: (states) => void (progress = createProgress(io.stderr, states, 'asking again')),
        onAsked: () => progress.tick(),
      }).finally(() => progress.end())
      io.stdout.write(values.json ? JSON.stringify(stabilityJson(results), null, 2) + '\n' : stabilityReport(results))
      return 0
    })
  },
)
