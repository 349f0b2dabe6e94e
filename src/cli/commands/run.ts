import { resolve } from 'node:path'
import { gitShortSha } from '../../adapters/files/git.ts'
import { createLedger } from '../../core/judge/ledger.ts'
import type { JudgmentPlan } from '../../core/judge/plan.ts'
import { findJudgment } from '../../adapters/files/spec-files.ts'
import { driftReport } from '../../core/reports/judgments.ts'
import { judgeRows } from '../../core/judge/judge-rows.ts'
import { nodeOrAll, withDependencies } from '../../core/judge/select.ts'
import type { RunRecord, Spec } from '../../core/types.ts'
import { openAnswersWriter } from '../../adapters/files/answers-out.ts'
import { readRows } from '../../adapters/files/rows.ts'
import type { RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, DATA_DOCS, helpText, onePath, parseCommand, positiveInt } from '../args.ts'
import { mix, plural, usd } from '../format.ts'
import type { CliIo } from '../io.ts'
import { createProgress } from '../progress.ts'
import { dataSourceOf, openSession, planFile, recordRuns, refuseBeforeAsking, type DataSource, type Session } from '../shared.ts'

const OPTIONS = { ...COMMON_OPTIONS, data: { type: 'string' }, delimiter: { type: 'string' }, concurrency: { type: 'string' }, out: { type: 'string' } } as const

/** `judge run`: judges every row of a data file, store first. */
export const HELP = helpText(
  'judge run <spec-or-folder> [--data FILE] [--delimiter C] [--concurrency N] [--out FILE] [--node NAME] [--json]',
  'Judges every row of the data file, asking the engine only what the store lacks, each distinct\nstate once. Records a run per judgment. Nothing is asked when the estimate is above\nJUDGE_MAX_COST (default $1.00): the plan is printed and the exit status is 2.',
  [
    ...DATA_DOCS,
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    { flag: '--out FILE', text: 'write every row with its answers (.csv, .tsv or .jsonl)' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge run`; returns the exit status: 0 complete, 1 a failed run, 2 refused before asking. */
export async function runCommand(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number> {
  const { values, positionals } = parseCommand('run', argv, OPTIONS)
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  const session = openSession(io, onePath('run', positionals), options)
  try {
    const selected = nodeOrAll(session.project, values.node)
    const source = dataSourceOf(io, 'run', values, selected)
    const plans = await planFile(session.deps, session.project, selected, source)
    refuseBeforeAsking(session, plans, io)
    const runs = await judgeFile(session, selected, source, plans, concurrency, values.out, io)
    if (values.json) io.stdout.write(JSON.stringify(runs, null, 2) + '\n')
    else io.stdout.write(summary(session, runs))
    return runs.some((r) => r.status !== 'complete') ? 1 : 0
  } finally {
    session.runtime.close()
  }
}

async function judgeFile(session: Session, selected: readonly Spec[], source: DataSource, plans: readonly JudgmentPlan[], concurrency: number, outFile: string | undefined, io: CliIo): Promise<RunRecord[]> {
  const started = session.deps.now()
  const ledger = createLedger(session.config.maxCost)
  const total = plans[0]?.rows ?? 0
  const progress = createProgress(io.stderr, total, 'judging')
  const writer = outFile ? openAnswersWriter(resolve(io.cwd, outFile), selected) : null
  let done = 0
  const specs = withDependencies(session.project, selected)
  const outcome = await judgeRows({ deps: session.deps, ledger, signal: io.signal }, specs, readRows(source.file, source.label, source.delimiter), {
    concurrency,
    onRow(seq, sourced, results) {
      writer?.write(seq, sourced.row, results)
      progress.tick(++done)
    },
  })
  progress.end()
  await writer?.close()
  const sha = await gitShortSha(session.project.dir)
  return recordRuns(session, specs, outcome, ledger, started, sha)
}

function summary(session: Session, runs: readonly RunRecord[]): string {
  const lines: string[] = []
  for (const run of runs) {
    lines.push(`${run.judgment}: ${plural(run.rows, 'row')}, ${run.cached} answers cached, ${run.asked} asked in ${plural(run.requests, 'request')}, cost ${usd(run.cost)}; ${run.status} (run ${run.run_id})`)
    const spec = findJudgment(session.project, run.judgment)
    for (const [question, entries] of Object.entries(driftReport(session.deps.store, spec))) {
      const last = entries.at(-1)
      if (!last || last.run_id !== run.run_id) continue
      const change = last.change === null ? 'first run' : `change ${last.change.toFixed(3)} since the last run${last.alert ? ' (drift alert)' : ''}`
      lines.push(`  ${question}: ${mix(last.shares)}; ${change}`)
    }
  }
  return lines.join('\n') + '\n'
}
