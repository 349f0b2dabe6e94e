import { resolve } from 'node:path'
import { gitShortSha } from '../../adapters/files/git.ts'
import { readConfig } from '../../config.ts'
import { createLedger, type Ledger } from '../../core/judge/ledger.ts'
import { modelFor, type JudgeDeps } from '../../core/judge/deps.ts'
import { type SpecResult } from '../../core/judge/judge-row.ts'
import { createPlanner } from '../../core/judge/plan.ts'
import { loadProject } from '../../adapters/files/spec-files.ts'
import { compareReplay, liveLabelsOf, sumTallies, type ReplayReport, type ReplayRow } from '../../core/reports/replay.ts'
import { singleJudgment } from '../../core/reports/judgments.ts'
import { judgeRows, type RowsOutcome } from '../../core/judge/judge-rows.ts'
import { withDependencies } from '../../core/judge/select.ts'
import { pairJudgments, type JudgmentPair } from '../../core/reports/shadow.ts'
import type { RunRecord, SourcedRow, Spec } from '../../core/types.ts'
import { UsageError } from '../../errors.ts'
import type { KeptRow } from '../../ports/store.ts'
import { createRuntime, specDirOf, type RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, parseCommand, positiveInt } from '../args.ts'
import type { CliIo } from '../io.ts'
import { createProgress } from '../progress.ts'
import { replayText } from '../replay-text.ts'
import { recordRuns, refuseBeforeAsking, type Session } from '../shared.ts'

const OPTIONS = { ...COMMON_OPTIONS, live: { type: 'string' }, concurrency: { type: 'string' } } as const

/** `judge replay`: tries a candidate spec on the rows kept for a live judgment. */
export const HELP = helpText(
  'judge replay <candidate> --live <spec-or-folder> [--node NAME] [--concurrency N] [--json]',
  'Judges the candidate spec on every row kept for the live judgment (requests sent with "log": true),\n' +
    'store first, so answers stored by shadow requests are not asked again. Reports per question how\n' +
    'often the labels agree, the confusion table, both label mixes and their distance, and the rows\n' +
    'that would change. Records a run of the candidate. Nothing is asked when the estimate is above\n' +
    'JUDGE_MAX_COST (default $1.00): the plan is printed and the exit status is 2. See docs/shadow.md.',
  [
    { flag: '--live PATH', text: 'the live spec file or folder whose kept rows are replayed (required)' },
    { flag: '--node NAME', text: 'the live judgment, for a folder of several; a candidate folder gives the one of the same name' },
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    ...COMMON_DOCS.filter((d) => !d.flag.startsWith('--node')),
  ],
)

/** The candidate's session (its project and store) beside the live judgment and its store. */
interface Replay {
  readonly session: Session
  readonly liveDeps: JudgeDeps
  readonly pair: JudgmentPair
}

/** Runs `judge replay`; returns the exit status: 0 done, 1 a failed run, 2 refused before asking. */
export async function replayCommand(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number> {
  const { values, positionals } = parseCommand('replay', argv, OPTIONS)
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  const candidatePath = onePath('replay', positionals)
  if (values.live === undefined) throw new UsageError('name the live spec or folder with --live PATH; see judge replay --help')
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  const replay = openReplay(io, candidatePath, values.live, values.node, options)
  try {
    const report = await replayKept(replay, io, concurrency)
    io.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : replayText(report))
    return report.run !== null && report.run.status !== 'complete' ? 1 : 0
  } finally {
    replay.session.runtime.close()
  }
}

/** Loads both paths and opens their stores (one store when both find the same file). */
function openReplay(io: CliIo, candidatePath: string, livePath: string, node: string | undefined, options: RuntimeOptions): Replay {
  const config = readConfig(io.env, io.cwd)
  const liveProject = loadProject(resolve(io.cwd, livePath))
  const candidateProject = loadProject(resolve(io.cwd, candidatePath))
  const live = singleJudgment(liveProject, node)
  const [pair] = pairJudgments([live], candidateProject.selected)
  if (!pair) {
    const names = candidateProject.selected.map((s) => s.name).join(', ')
    throw new UsageError(`the candidate folder ${candidateProject.dir} holds no judgment named ${live.name} (it holds ${names})`)
  }
  const runtime = createRuntime(config, options)
  const session = { config, project: candidateProject, runtime, deps: runtime.depsFor(specDirOf(candidateProject.path)) }
  return { session, liveDeps: runtime.depsFor(specDirOf(liveProject.path)), pair }
}

/** Judges the candidate on the kept rows within the cap, records its run and compares the labels. */
async function replayKept(replay: Replay, io: CliIo, concurrency: number): Promise<ReplayReport> {
  const { session, liveDeps, pair } = replay
  const kept = liveDeps.store.keptRows(pair.live.name)
  const ledger = createLedger(session.config.maxCost)
  // Nothing kept: nothing to judge, and a run of no rows would only add an empty mix to drift.
  if (kept.length === 0) return reportOf(replay, kept, [], ledger, null)
  const rows = kept.map((k): SourcedRow => ({ row: k.state, where: `kept row ${k.stateHash} of ${pair.live.name}` }))
  const planner = createPlanner(session.deps, session.project, [pair.candidate])
  for (const { row, where } of rows) planner.add(row, where)
  refuseBeforeAsking(session, planner.result(), io)
  const started = session.deps.now()
  const { outcome, labels } = await judgeKept(replay, rows, ledger, io, concurrency)
  const run = await recordRun(session, pair.candidate, outcome, ledger, started)
  return reportOf(replay, kept, compareRows(replay, kept, labels), ledger, run)
}

/** Judges the candidate on the rows; its labels come back by the kept row's index. */
async function judgeKept(replay: Replay, rows: readonly SourcedRow[], ledger: Ledger, io: CliIo, concurrency: number) {
  const { session, pair } = replay
  const labels: Record<string, string>[] = []
  let done = 0
  const progress = createProgress(io.stderr, rows.length, 'replaying')
  const outcome = await judgeRows({ deps: session.deps, ledger, signal: io.signal }, withDependencies(session.project, [pair.candidate]), each(rows), {
    concurrency,
    onRow(seq, _sourced, results) {
      labels[seq] = labelsOf(results.get(pair.candidate.name)!)
      progress.tick(++done)
    },
  })
  progress.end()
  return { outcome, labels }
}

/**
 * The replayed rows with their live labels. Read after judging: a candidate question worded as
 * the live one shares its cache key, so what the candidate asked for a row is its live answer too.
 */
function compareRows(replay: Replay, kept: readonly KeptRow[], labels: readonly Record<string, string>[]): ReplayRow[] {
  const { liveDeps, pair } = replay
  const model = modelFor(pair.live, liveDeps)
  const fingerprints = pair.live.questions.map((q) => q.fingerprint)
  return kept.flatMap((k, i): ReplayRow[] => {
    if (!labels[i]) return []
    const live = liveLabelsOf(pair.live, liveDeps.store.getAnswers(model, k.stateHash, fingerprints))
    return [{ stateHash: k.stateHash, state: k.state, live, candidate: labels[i] }]
  })
}

function reportOf(replay: Replay, kept: readonly KeptRow[], rows: readonly ReplayRow[], ledger: Ledger, run: RunRecord | null): ReplayReport {
  const { session, liveDeps, pair } = replay
  const specs = withDependencies(session.project, [pair.candidate])
  return {
    live: { judgment: pair.live.name, spec_hash: pair.live.hash, model: modelFor(pair.live, liveDeps) },
    candidate: { judgment: pair.candidate.name, spec_hash: pair.candidate.hash, model: modelFor(pair.candidate, session.deps) },
    kept: kept.length,
    replayed: rows.length,
    ...compareReplay(pair, rows),
    totals: sumTallies(specs.map((s) => ledger.tally(s.name))),
    run,
  }
}

// Only the candidate gets a run: its dependencies were judged on another judgment's rows, and a
// run of theirs would put that foreign mix into their drift.
async function recordRun(session: Session, spec: Spec, outcome: RowsOutcome, ledger: Ledger, started: Date): Promise<RunRecord> {
  const [run] = recordRuns(session, [spec], outcome, ledger, started, await gitShortSha(session.project.dir))
  return run
}

function labelsOf(result: SpecResult): Record<string, string> {
  return Object.fromEntries(Object.entries(result.answers).map(([question, answer]) => [question, answer.label]))
}

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items
}
