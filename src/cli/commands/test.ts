import { answerModels } from '../../app/answer-models.ts'
import { modelText } from '../model-text.ts'
import { testJudgments } from '../../app/test-judgments.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, positiveInt } from '../args.ts'
import { defineCommand } from '../command.ts'
import { createProgress, type Progress } from '../progress.ts'
import { withSession } from '../shared.ts'
import { belowBar, scoresJson, testReport } from '../test-text.ts'

/** The options `judge test` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS, concurrency: { type: 'string' } } as const

/** `judge test`: judges the answer key and the reviewed rows, and scores each question against them. */
export const HELP = helpText(
  'judge test <spec-or-folder> [--node NAME] [--concurrency N] [--json]',
  "Judges the rows of each judgment's answer key (key:), when it has one, and its reviewed rows,\n" +
    'asking the engine only what the store lacks, and records a run. Then, per question: the estimated\n' +
    'accuracy over every answer in the store, from the random sample of each stratum, with its 95%\n' +
    'interval, said in words first when it rests on few rows; beside it the accuracy pooled over every\n' +
    'row with a known label (key and verdicts), with its interval, context gap, ambiguous and pending\n' +
    'rows, and a confusion table. Without a key the figures rest on the verdicts alone. Exit 1 when a\n' +
    'question is below min_accuracy (the estimate when there is one, else the pooled accuracy); nothing\n' +
    'is asked when the cost estimate is above JUDGE_MAX_COST (default $1.00): the plan is printed and\n' +
    'the exit status is 2.',
  [{ flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' }, ...COMMON_DOCS],
)

/**
 * Runs `judge test`; returns the exit status: 0 every question meets its bar, 1 one does not or a run failed, 2
 * refused.
 */
export const testCommand = defineCommand('test', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  return withSession(io, onePath('test', positionals), options, async (session) => {
    let progress: Progress | null = null
    const { specs, runs, scores } = await testJudgments(session.runtime, {
      project: session.project,
      judgment: values.node,
      cap: session.config.maxCost,
      concurrency,
      signal: io.signal,
      onTrial(spec, rows) {
        progress?.end()
        const bar = (progress = createProgress(io.stderr, rows, `judging ${spec.name}`))
        return () => bar.tick()
      },
    }).finally(() => progress?.end())
    io.stdout.write(
      values.json
        ? JSON.stringify(scoresJson(scores), null, 2) + '\n'
        : modelText(specs.map((s) => answerModels(session.runtime, session.project, s))) +
            testReport(runs, specs, scores),
    )
    const failed = runs.filter((r) => r.status !== 'complete')
    for (const run of failed) io.stderr.write(`judge test: run ${run.run_id} of ${run.judgment}: ${run.status}\n`)
    const below = specs.flatMap((spec) => belowBar(spec, scores.get(spec.name)!))
    for (const line of below) io.stderr.write(`judge test: ${line}\n`)
    return failed.length > 0 || below.length > 0 ? 1 : 0
  })
})
