import { likeDriftOfSpec, runById } from '../../app/runs.ts'
import { fitOfRun } from '../../app/fit.ts'
import { engineLimits, runRows } from '../../app/run.ts'
import { noiseAboveError } from '../../app/noise-check.ts'
import { findJudgment } from '../../core/spec/project.ts'
import { selectJudgments, withDependencies } from '../../core/judge/select.ts'
import { hasJury } from '../../core/jury/jurors.ts'
import type { GovernorStatus } from '../../core/pacing/governor.ts'
import type { RunRecord } from '../../core/types.ts'
import { COMMON_DOCS, COMMON_OPTIONS, DATA_DOCS, helpText, onePath, positiveInt } from '../args.ts'
import { costText } from '../text.ts'
import { comparedOnOtherData, comparedWith, questionLine } from '../drift-text.ts'
import { fitLines } from '../fit-text.ts'
import { noiseLines } from '../stability-text.ts'
import { routeLines } from '../route-text.ts'
import { defineCommand } from '../command.ts'
import { createProgress } from '../progress.ts'
import { dataSourceOf, runJson, withSession, type Session } from '../shared.ts'
import { prepareOut } from '../run-out.ts'
import { count, plural } from '../../format.ts'
import { UsageError } from '../../errors.ts'
import type { RowSource } from '../../app/plan.ts'
import type { Spec } from '../../core/types.ts'
import type { CliIo } from '../io.ts'
import { lazy } from '../../lazy.ts'

// The bulk lane loads only for `run --batch`.
const bulk = lazy<typeof import('../batch-run.ts')>(import.meta.url, '../batch-run.ts')

/** The options `judge run` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  data: { type: 'string' },
  delimiter: { type: 'string' },
  concurrency: { type: 'string' },
  out: { type: 'string' },
  'out-prefix': { type: 'string' },
  batch: { type: 'boolean', default: false },
  'no-wait': { type: 'boolean', default: false },
  reweigh: { type: 'boolean', default: false },
} as const

/** `judge run`: judges every row of a data file, store first. */
export const HELP = helpText(
  'judge run <spec-or-folder> [--data FILE] [--delimiter C] [--concurrency N] [--out FILE] [--out-prefix P] ' +
    '[--batch [--no-wait]] [--reweigh] [--node NAME] [--json]',
  'Judges every row of the data file, asking the engine only what the store lacks, each distinct\nstate once. ' +
    'Records a run per judgment. Nothing is asked when the estimate is above\nJUDGE_MAX_COST (default $1.00): ' +
    'the plan is printed and the exit status is 2.',
  [
    ...DATA_DOCS,
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    {
      flag: '--out FILE',
      text:
        'write every row with its answers (.csv, .tsv or .jsonl), in place once the run is complete; ' +
        'never a file the run reads',
    },
    {
      flag: '--out-prefix P',
      text: "put P before the name of every answer column, to keep them apart from the data's",
    },
    {
      flag: '--batch',
      text:
        "ask through the engine's batch API at the batch price (ENGINE_BATCH_PRICE_PER_MTOK), waiting for " +
        'its batches; run it again to collect batches left pending',
    },
    { flag: '--no-wait', text: 'with --batch: submit, record and exit; the same command again collects' },
    {
      flag: '--reweigh',
      text:
        "for a jury (models:): make each row's jury answer again from its jurors' answers with the jury's " +
        'current weights, replacing the one stored; jurors are asked only what they lack',
    },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge run`; returns the exit status: 0 complete, 1 a failed run, 2 refused before asking. */
export const runCommand = defineCommand('run', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  if (values['no-wait'] && !values.batch) throw new UsageError('--no-wait goes with --batch')
  if (values.batch && values.out !== undefined) throw new UsageError('--out does not go with --batch')
  if (values.batch && values.reweigh) throw new UsageError('--reweigh does not go with --batch')
  return withSession(io, onePath('run', positionals), options, async (session) => {
    const specs = selectJudgments(session.project, values.node, 'all')
    const juries = withDependencies(session.project, specs).filter(hasJury)
    if (values.reweigh && juries.length === 0)
      throw new UsageError(
        `--reweigh re-weighs a jury's answers only, and ${specs.map((s) => s.name).join(', ')} names no jury (models:)`,
      )
    const source = dataSourceOf(io, values, specs)
    if (values.batch) return batchRun(session, io, specs, source, !values['no-wait'], values.json)
    // Checked before the store is opened or anything asked: --out never replaces a file or a column the run reads.
    const out = await prepareOut(io, session, values, specs, source)
    let progress = createProgress(io.stderr, 0, 'judging')
    let total = 0
    const cap = session.config.maxCost
    // Each jury judged is told of, changes or none.
    const reweighed = new Map<string, Reweighed>(
      values.reweigh ? juries.map((s) => [s.name, { changed: 0, relabelled: 0 }]) : [],
    )
    const runs = await runRows(session.runtime, {
      project: session.project,
      specs,
      source,
      cap,
      concurrency,
      signal: io.signal,
      onPlan(plans, live) {
        // Opened once the plan is within the cap, so that a refused run writes nothing.
        out?.open()
        total = plans[0]?.rows ?? 0
        progress = createProgress(io.stderr, total, 'judging', {
          status: () => {
            const now = live()
            return { ...now, spent: now.topCost, cap }
          },
        })
      },
      // Only a writer wants the rows one by one: without one, rows the store answers are counted from their plan.
      onRow: out ? (seq, sourced, results) => out.write(seq, sourced.row, results) : undefined,
      onRows: (done) => progress.moveTo(done),
      reweigh: values.reweigh,
      onReweighed(judgment, changed, relabelled) {
        const sum = reweighed.get(judgment)!
        reweighed.set(judgment, { changed: sum.changed + changed, relabelled: sum.relabelled + relabelled })
      },
    })
      .catch(async (error: unknown) => {
        await out?.finish(false)
        throw error
      })
      .finally(() => progress.end())
    const complete = runs.every((r) => r.status === 'complete')
    await out?.finish(complete)
    const noise = values.json
      ? ''
      : noiseLines(
          await noiseAboveError(
            session.runtime,
            session.project,
            runs.map((r) => r.judgment),
          ),
        )
    io.stdout.write(
      values.json ? JSON.stringify(runs.map(runJson), null, 2) + '\n' : summary(session, runs, reweighed) + noise,
    )
    const engineNote = limitNote(engineLimits(session.runtime, session.project))
    if (engineNote !== '') io.stderr.write(engineNote)
    for (const run of runs.filter((r) => r.status !== 'complete')) io.stderr.write(resumeNote(run, total))
    return complete ? 0 : 1
  })
})

/** `run --batch`: the runs when it waited (as a run without it shows them), else what it submitted. */
async function batchRun(
  session: Session,
  io: CliIo,
  specs: readonly Spec[],
  source: RowSource,
  wait: boolean,
  json: boolean,
): Promise<number> {
  const { runThroughBatch, submittedText, unansweredText } = bulk()
  const result = await runThroughBatch(session, io, specs, source, wait)
  if (result.runs.length === 0) {
    io.stdout.write(json ? JSON.stringify(result.batches, null, 2) + '\n' : submittedText(result))
    return 0
  }
  io.stdout.write(json ? JSON.stringify(result.runs.map(runJson), null, 2) + '\n' : summary(session, result.runs))
  io.stderr.write(unansweredText(result))
  return result.runs.every((r) => r.status === 'complete') ? 0 : 1
}

/**
 * What the engine refused or could not take during the run, and the rate limit found below ENGINE_RPM; '' when nothing.
 */
export function limitNote(status: GovernorStatus | undefined): string {
  if (status === undefined || (status.refused === 0 && status.overloaded === 0)) return ''
  const counts =
    `${plural(status.refused, 'request')} refused for the rate (429), ` + `${status.overloaded} overloaded (529)`
  if (status.refusedRpm === null) return `judge run: ${counts}\n`
  const perMinute = (rpm: number) => count(Math.round(rpm))
  return (
    `judge run: ${counts}; the engine's limit was found below ENGINE_RPM: ` +
    `it refused ${perMinute(status.refusedRpm)} requests a minute, ` +
    `and the pace kept to ${perMinute(status.rpm)} a minute at the end\n`
  )
}

/** What is left of a run that did not complete, and how to finish it. */
export function resumeNote(run: RunRecord, total: number): string {
  const left = Math.max(0, total - run.rows)
  return (
    `judge run: ${run.judgment}: ${run.status}; ${left} of ${plural(total, 'row')} left. ` +
    'Run the same command again to resume: the answers received are kept, and only the rest is asked.\n'
  )
}

/** What re-weighing changed of one judgment's jury answers: how many, and how many of those changed label. */
interface Reweighed {
  readonly changed: number
  readonly relabelled: number
}

/** The line saying what re-weighing a jury's answers changed. */
export function reweighLine({ changed, relabelled }: Reweighed): string {
  return (
    `  re-weighed with the jury's current weights: ${plural(changed, 'stored answer')} changed, ` +
    `${count(relabelled)} of them in label`
  )
}

function summary(
  session: Session,
  runs: readonly RunRecord[],
  reweighed: ReadonlyMap<string, Reweighed> = new Map(),
): string {
  const lines: string[] = []
  for (const run of runs) {
    const duplicates = run.rows - run.states
    const rows =
      duplicates > 0
        ? `${plural(run.rows, 'row')} (${plural(duplicates, 'duplicate')} of an earlier row)`
        : plural(run.rows, 'row')
    lines.push(
      `${run.judgment}: ${rows}, ${run.cached} answers cached, ${run.asked} asked ` +
        `in ${plural(run.requests, 'request')}, ${costText(run.cost, run.model)}; ${run.status} ` +
        `(run ${run.run_id})`,
    )
    const weighed = reweighed.get(run.judgment)
    if (weighed) lines.push(reweighLine(weighed))
    lines.push(...routeLines(run.routes, run.rows))
    lines.push(...fitLines(fitOfRun(session.runtime, session.project, run)))
    const spec = findJudgment(session.project, run.judgment)
    const drift = Object.entries(likeDriftOfSpec(session.runtime, session.project, spec))
    const mine = drift.flatMap(([question, entries]) =>
      entries.filter((e) => e.run_id === run.run_id).map((e) => [question, e] as const),
    )
    if (mine.length === 0) continue
    lines.push(`  ${comparedWith(mine[0][1])}`)
    const other = comparedOnOtherData(mine[0][1])
    if (other !== '') lines.push(`  ${other}`)
    const model = mine[0][1].baseline === null ? '' : modelLine(session, run, mine[0][1].baseline)
    if (model !== '') lines.push(`  ${model}`)
    for (const [question, entry] of mine) lines.push(questionLine(question, entry))
  }
  return lines.join('\n') + '\n'
}

/** When the engine reported another model than for the baseline: which, before each change's parts. */
function modelLine(session: Session, run: RunRecord, baseline: string): string {
  const before = runById(session.runtime, session.project, baseline)
  if (!before?.reported_model || !run.reported_model || before.reported_model === run.reported_model) return ''
  return (
    `the engine reported model ${run.reported_model}, where run ${baseline} had ${before.reported_model}: ` +
    `each change below is split into the model's part and the data's`
  )
}
