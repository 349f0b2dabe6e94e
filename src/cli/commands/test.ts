import { dirname } from 'node:path'
import { gitShortSha } from '../../adapters/files/git.ts'
import { createLedger, type Ledger } from '../../core/judge/ledger.ts'
import { modelFor } from '../../core/judge/deps.ts'
import { createPlanner, type JudgmentPlan } from '../../core/judge/plan.ts'
import { accuracyData } from '../../app/review-data.ts'
import type { AnswerKey, Verdicts } from '../../core/review/verdicts.ts'
import { judgeRows } from '../../core/judge/judge-rows.ts'
import { nodeOrAll } from '../../core/judge/select.ts'
import { stateHash, stateOf } from '../../core/judge/state.ts'
import type { Project, RunRecord, SourcedRow, Spec } from '../../core/types.ts'
import { SpecError } from '../../errors.ts'
import { readKey } from '../../adapters/files/key-file.ts'
import { readVerdicts } from '../../adapters/files/reviews-file.ts'
import type { RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, parseCommand } from '../args.ts'
import type { CliIo } from '../io.ts'
import { createProgress } from '../progress.ts'
import { openSession, recordRuns, refuseBeforeAsking, type Session } from '../shared.ts'
import { belowBar, scoresJson, testReport } from '../test-text.ts'

/** `judge test`: judges the answer key and scores each question against it and the verdicts. */
export const HELP = helpText(
  'judge test <spec-or-folder> [--node NAME] [--json]',
  'Judges the rows of each judgment\'s answer key (key:) and its reviewed rows, asking the engine\nonly what the store lacks, and records a run. Then scores every question against the key and the\nreview verdicts: accuracy with its 95% interval, context gap, ambiguous and pending rows, and a\nconfusion table. Exit 1 when a question is below min_accuracy; nothing is asked when the\nestimate is above JUDGE_MAX_COST (default $1.00): the plan is printed and the exit status is 2.',
  COMMON_DOCS,
)

/** One judgment under test: the judgment on its own, its key and verdicts, and the rows to judge. */
interface Trial {
  readonly spec: Spec
  readonly alone: Project
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  readonly rows: readonly SourcedRow[]
}

/** Runs `judge test`; returns the exit status: 0 every question meets its bar, 1 one does not or a run failed, 2 refused. */
export async function testCommand(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number> {
  const { values, positionals } = parseCommand('test', argv, COMMON_OPTIONS)
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  const session = openSession(io, onePath('test', positionals), options)
  try {
    const trials = await Promise.all(nodeOrAll(session.project, values.node).map(trialOf))
    refuseBeforeAsking(session, trials.map((trial) => planOf(session, trial)), io)
    const runs = await judgeTrials(session, trials, io)
    const scores = new Map(trials.map((t) => [t.spec.name, accuracyData({ ...t, store: session.deps.store, model: modelFor(t.spec, session.deps) })]))
    io.stdout.write(values.json ? JSON.stringify(scoresJson(scores), null, 2) + '\n' : testReport(runs, trials.map((t) => t.spec), scores))
    const failed = runs.filter((r) => r.status !== 'complete')
    for (const run of failed) io.stderr.write(`judge test: run ${run.run_id} of ${run.judgment}: ${run.status}\n`)
    const below = trials.flatMap((t) => belowBar(t.spec, scores.get(t.spec.name)!))
    for (const line of below) io.stderr.write(`judge test: ${line}\n`)
    return failed.length > 0 || below.length > 0 ? 1 : 0
  } finally {
    session.runtime.close()
  }
}

async function trialOf(spec: Spec): Promise<Trial> {
  if (spec.key === null) throw new SpecError(spec.file, 'key', 'judge test needs an answer key: set key: to a CSV file of the state columns and a label column per question')
  const key = await readKey(spec, spec.key)
  const verdicts = await readVerdicts(spec.reviews)
  return { spec, alone: standalone(spec), key, verdicts, rows: rowsToJudge(spec, key, verdicts) }
}

/**
 * The judgment as a project of its own. Key and review rows give a chained judgment's upstream
 * labels as plain state values, and it is tested on those, so nothing upstream is judged.
 */
function standalone(spec: Spec): Project {
  const plain: Spec = { ...spec, state: spec.state.map(({ name }) => ({ name })) }
  return { path: spec.file, dir: dirname(spec.file), specs: [plain], selected: [plain] }
}

/** The key's rows, then the rows reviewed outside the key whose saved state still is this judgment's. */
function rowsToJudge(spec: Spec, key: AnswerKey, verdicts: Verdicts): SourcedRow[] {
  const rows = new Map<string, SourcedRow>([...key.values()].map((r) => [r.stateHash, { row: r.state, where: r.where }]))
  for (const v of verdicts.values()) {
    if (v.judgment !== spec.name || v.labels.length === 0 || rows.has(v.state_hash)) continue
    if (!spec.state.every((c) => Object.hasOwn(v.state, c.name))) continue
    if (stateHash(stateOf(v.state, spec.state, spec.reviews)) !== v.state_hash) continue
    rows.set(v.state_hash, { row: v.state, where: `${spec.reviews}: row ${v.state_hash}` })
  }
  return [...rows.values()]
}

function planOf(session: Session, trial: Trial): JudgmentPlan {
  const planner = createPlanner(session.deps, trial.alone, trial.alone.selected)
  for (const { row, where } of trial.rows) planner.add(row, where)
  return planner.result()[0]
}

async function judgeTrials(session: Session, trials: readonly Trial[], io: CliIo): Promise<RunRecord[]> {
  const ledger: Ledger = createLedger(session.config.maxCost)
  const sha = await gitShortSha(session.project.dir)
  const runs: RunRecord[] = []
  for (const trial of trials) {
    const started = session.deps.now()
    const progress = createProgress(io.stderr, trial.rows.length, `judging ${trial.spec.name}`)
    let done = 0
    const outcome = await judgeRows({ deps: session.deps, ledger, signal: io.signal }, trial.alone.specs, rowsOf(trial.rows), {
      concurrency: 8,
      onRow: () => progress.tick(++done),
    })
    progress.end()
    runs.push(...recordRuns(session, trial.alone.specs, outcome, ledger, started, sha))
  }
  return runs
}

async function* rowsOf(rows: readonly SourcedRow[]): AsyncGenerator<SourcedRow> {
  yield* rows
}
