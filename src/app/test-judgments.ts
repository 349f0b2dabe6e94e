import { dirname } from 'node:path'
import { modelFor } from '../core/judge/deps.ts'
import { judgeRows, type JudgeRowsOptions } from '../core/judge/judge-rows.ts'
import { createLedger, type Ledger } from '../core/judge/ledger.ts'
import { createPlanner } from '../core/judge/plan.ts'
import { selectJudgments } from '../core/judge/select.ts'
import { stateHash, stateOf } from '../core/judge/state.ts'
import type { ScoredQuestion } from './review-data.ts'
import { countingVerdicts, type Reviews } from '../core/review/double-review.ts'
import type { AnswerKey, Verdicts } from '../core/review/verdicts.ts'
import type { Project, RunRecord, SourcedRow, Spec } from '../core/types.ts'
import type { Store } from '../ports/store.ts'
import type { App, DepsWith } from './app.ts'
import { juryQuestions, type JuryQuestion } from './juror-accuracy.ts'
import { checkPlans } from './plan.ts'
import { judgePass } from './open-runs.ts'
import { scoredQuestions } from './review-data.ts'

/** What `test` judges and scores. */
export interface TestInput {
  readonly project: Project
  readonly judgment?: string | null
  readonly cap: number
  readonly concurrency: number
  readonly signal?: AbortSignal
  /** Called as each judgment's rows start, with their count, and per row judged. */
  readonly onTrial?: (spec: Spec, rows: number) => JudgeRowsOptions['onRow']
}

/** A question's scores as `test` gives them: with, for a jury spec, what each juror buys (app/juror-accuracy.ts). */
export type TestedQuestion = ScoredQuestion & Partial<JuryQuestion>

/** What `test` found: the runs it recorded and each judgment's scores per question. */
export interface TestResult {
  readonly specs: readonly Spec[]
  readonly runs: readonly RunRecord[]
  readonly scores: ReadonlyMap<string, Readonly<Record<string, TestedQuestion>>>
}

/** One judgment under test: the judgment on its own, its key and verdicts, and the rows to judge. */
interface Trial {
  readonly spec: Spec
  readonly alone: Project
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  readonly reviews: Reviews
  readonly rows: readonly SourcedRow[]
}

/**
 * `test`: judges each judgment's answer key and reviewed rows store first (refusing above the cap),
 * records a run per judgment with rows to judge, and scores every question against the key, when
 * there is one, and the verdicts.
 */
export async function testJudgments(app: App, input: TestInput): Promise<TestResult> {
  const specs = selectJudgments(input.project, input.judgment, 'all')
  const trials = await Promise.all(specs.map((spec) => trialOf(app, spec)))
  const deps = app.depsFor(input.project)
  checkPlans(
    deps,
    trials.map((trial) => planOf(app, trial)),
    input.cap,
  )
  const ledger = createLedger(input.cap)
  const runs: RunRecord[] = []
  // With no key row and no verdict there is nothing to judge, and no run to record.
  for (const trial of trials) if (trial.rows.length > 0) runs.push(...(await judgeTrial(app, input, trial, ledger)))
  const scores = new Map(trials.map((t) => [t.spec.name, testedQuestions(t, deps)]))
  return { specs, runs, scores }
}

/** A trial's scores per question, each with its jury's and jurors' figures when the judgment names a jury. */
function testedQuestions(trial: Trial, deps: DepsWith<Store>): Record<string, TestedQuestion> {
  const scores = scoredQuestions({ ...trial, store: deps.store, model: modelFor(trial.spec, deps) })
  const juries = juryQuestions({ spec: trial.spec, verdicts: trial.verdicts, source: { store: deps.store, deps } })
  if (juries === null) return scores
  return Object.fromEntries(Object.entries(scores).map(([q, score]) => [q, { ...score, ...juries[q] }]))
}

/** A judgment without `key:` has an empty key: it is tested on the rows reviewers gave a verdict on. */
async function trialOf(app: App, spec: Spec): Promise<Trial> {
  const [key, reviews] = await Promise.all([app.files.key(spec), app.files.reviews(spec)])
  const verdicts = countingVerdicts(reviews)
  return { spec, alone: standalone(spec), key, verdicts, reviews, rows: rowsToJudge(spec, key, verdicts) }
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
  const rows = new Map<string, SourcedRow>(
    [...key.values()].map((r) => [r.stateHash, { row: r.state, where: r.where }]),
  )
  for (const v of verdicts.values()) {
    if (v.judgment !== spec.name || v.labels.length === 0 || rows.has(v.state_hash)) continue
    if (!spec.state.every((c) => Object.hasOwn(v.state, c.name))) continue
    if (stateHash(stateOf(v.state, spec.state, spec.reviews)) !== v.state_hash) continue
    rows.set(v.state_hash, { row: v.state, where: `${spec.reviews}: row ${v.state_hash}` })
  }
  return [...rows.values()]
}

function planOf(app: App, trial: Trial) {
  const planner = createPlanner(app.depsFor(trial.alone), trial.alone, trial.alone.selected)
  for (const { row, where } of trial.rows) planner.add(row, where)
  return planner.result()[0]
}

async function judgeTrial(app: App, input: TestInput, trial: Trial, ledger: Ledger): Promise<RunRecord[]> {
  const provenance = {
    command: 'test' as const,
    source: trial.spec.key === null ? 'reviewed rows' : 'answer key',
    sourceHash: trial.spec.key === null ? '' : await app.files.contentHash(trial.spec.key),
  }
  const pass = {
    project: trial.alone,
    record: trial.alone.specs,
    named: trial.alone.specs,
    provenance,
    ledger,
    started: app.now(),
  }
  const onRow = input.onTrial?.(trial.spec, trial.rows.length)
  const job = { deps: app.depsFor(trial.alone), ledger, signal: input.signal, patience: 'run' as const }
  return judgePass(app, pass, (onProgress) =>
    judgeRows(job, trial.alone.specs, trial.rows, { concurrency: input.concurrency, onRow, onProgress }),
  )
}
