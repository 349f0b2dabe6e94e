import { relative } from 'node:path'
import { askMissing } from '../core/judge/ask.ts'
import { type JudgeDeps } from '../core/judge/deps.ts'
import { fingerprintsOf } from '../core/judge/judge-row.ts'
import { isJury } from '../core/jury/jurors.ts'
import type { Ledger, Tally } from '../core/judge/ledger.ts'
import { stateHash, stateOf } from '../core/judge/state.ts'
import { shortHash } from '../core/hash.ts'
import { previousLike } from '../core/reports/like-runs.ts'
import type { ModelCheck, ModelPair, Project, RunRecord, Spec, State } from '../core/types.ts'
import { tidy } from '../core/judge/answer.ts'
import type { StoredAnswer } from '../ports/answer-store.ts'
import type { RunStore } from '../ports/run-store.ts'
import type { App, DepsWith } from './app.ts'

/** Most states of the baseline run a model check judges under the new model (shares within about ±5%). */
export const MODEL_CHECK_STATES = 400

/** Rows a model check judges at once. */
const CHECK_CONCURRENCY = 8

/** What a model check needs of the pass whose runs were just recorded. */
export interface CheckedPass {
  readonly project: Project
  /** The judgments recorded; each run's spec is among them. */
  readonly record: readonly Spec[]
  /** The pass's ledger: the check spends what the run left of its budget. */
  readonly ledger: Ledger
}

/** One row a model check compares: its state, and how many rows of the baseline it stands for. */
interface CheckRow {
  readonly state: State
  readonly hash: string
  readonly weight: number
}

interface Check {
  /** Judging, and the runs: the baseline's states, the runs' states compared, the check recorded. */
  readonly deps: DepsWith<RunStore>
  readonly ledger: Ledger
  readonly spec: Spec
  readonly run: RunRecord
  readonly baseline: RunRecord
}

/**
 * A model check to make once its run is recorded: the sample of the baseline's rows already read (null for anchors).
 */
export interface PendingCheck {
  readonly check: Check
  readonly sample: CheckRow[] | null
}

/**
 * The model checks of runs about to be recorded: each complete run whose engine reported another
 * model than its baseline (the previous complete run of the same command and source) did. The
 * baseline's sample is read now, before the runs are recorded: the baseline is then still its
 * series' newest complete run, whose rows `judge runs --prune` never deletes.
 */
export function pendingChecks(app: App, pass: CheckedPass, runs: readonly RunRecord[]): PendingCheck[] {
  const deps = app.depsFor(pass.project)
  return runs.flatMap((run): PendingCheck[] => {
    // A jury's answers are its jurors' vote, kept and reported under its own id: no engine answers to that id.
    if (run.status !== 'complete' || run.reported_model === '' || isJury(run.model)) return []
    const baseline = previousLike(deps.store.listRuns([run.judgment], Infinity), run)
    if (!baseline || baseline.reported_model === '' || baseline.reported_model === run.reported_model) return []
    const spec = pass.record.find((s) => s.name === run.judgment)!
    const check = { deps, ledger: pass.ledger, spec, run, baseline }
    return [{ check, sample: spec.anchors ? null : sampleRows(check) }]
  })
}

/**
 * Makes the pending checks of recorded runs: judges the baseline's rows under the new model as
 * well, store first, and records how each question's labels compare. The rows are the spec's
 * `anchors:` file when it names one, else the random sample of the baseline's states read before,
 * at most MODEL_CHECK_STATES; asking stops at the pass's cost cap (what the run left of it).
 */
export async function checkModels(app: App, pass: CheckedPass, pending: readonly PendingCheck[]): Promise<void> {
  for (const { check, sample } of pending) {
    const rows = sample ?? (await anchorRows(app, pass, check.spec))
    check.deps.store.recordModelCheck(await compare(check, rows, sample ? 'sample' : 'anchors'))
  }
}

function sampleRows(check: Check): CheckRow[] {
  const { store } = check.deps
  // State hashes are uniform: starting at a point fixed by the run's id, the sample is random and repeatable.
  const picked = store.runStates(check.baseline.run_id, shortHash(check.run.run_id), MODEL_CHECK_STATES)
  const states = store.getStates(picked.map((s) => s.stateHash))
  return picked.flatMap((s) =>
    states.has(s.stateHash) ? [{ state: states.get(s.stateHash)!, hash: s.stateHash, weight: s.rows }] : [],
  )
}

async function anchorRows(app: App, pass: CheckedPass, spec: Spec): Promise<CheckRow[]> {
  const rows = new Map<string, CheckRow>()
  for await (const { row, where } of app.files.rows(spec.anchors!, relative(pass.project.dir, spec.anchors!))) {
    const state = stateOf(row, spec.state, where)
    const hash = stateHash(state)
    if (!rows.has(hash)) rows.set(hash, { state, hash, weight: 1 })
  }
  return [...rows.values()]
}

async function compare(check: Check, rows: readonly CheckRow[], from: ModelCheck['rows_from']): Promise<ModelCheck> {
  const tally: Tally = { cached: 0, asked: 0, requests: 0, cost: 0, duplicates: 0 }
  // The check spends from the run's budget but keeps its own tally: the run record is written.
  const job = { deps: check.deps, ledger: { budget: (j: string) => check.ledger.budget(j), tally: () => tally } }
  const pairs = new Map<string, ModelPair>()
  let states = 0
  let stopped = ''
  const both = async (row: CheckRow) => [
    await answersUnder(job, check.spec, check.baseline, row, from === 'anchors'),
    await answersUnder(job, check.spec, check.run, row, true),
  ]
  // A few rows at a time, as a run asks; the first refusal (the cap) or failure ends the check.
  for (let i = 0; i < rows.length && stopped === ''; i += CHECK_CONCURRENCY) {
    const chunk = rows.slice(i, i + CHECK_CONCURRENCY)
    for (const [j, settled] of (await Promise.allSettled(chunk.map(both))).entries()) {
      if (settled.status === 'rejected') {
        stopped ||= settled.reason instanceof Error ? settled.reason.message : String(settled.reason)
        continue
      }
      const [old, now] = settled.value
      for (const q of check.spec.questions)
        addPair(pairs, q.name, old.get(q.fingerprint), now.get(q.fingerprint), chunk[j].weight)
      states += 1
    }
  }
  return {
    run_id: check.run.run_id,
    baseline: check.baseline.run_id,
    old_model: check.baseline.reported_model,
    new_model: check.run.reported_model,
    rows_from: from,
    states,
    same_rows: check.deps.store.sameRunStates(check.baseline.run_id, check.run.run_id),
    stopped,
    asked: tally.asked,
    cost: tidy(tally.cost),
    pairs: [...pairs.values()],
  }
}

/**
 * A row's answers from the model a run's engine reported: stored under the model the run asked
 * (when that model reported it) or under the reported model's own name, and otherwise, when `ask`,
 * asked of the engine by that name.
 */
async function answersUnder(
  job: { deps: JudgeDeps; ledger: Ledger },
  spec: Spec,
  run: RunRecord,
  row: CheckRow,
  ask: boolean,
): Promise<Map<string, StoredAnswer>> {
  const { store } = job.deps
  const reported = run.reported_model
  const found = new Map(
    [...store.getAnswers(run.model, row.hash, fingerprintsOf(spec))].filter(
      ([, a]) => (a.reportedModel ?? a.model) === reported,
    ),
  )
  if (found.size < spec.questions.length && run.model !== reported) {
    for (const [fp, a] of store.getAnswers(reported, row.hash, fingerprintsOf(spec)))
      if (!found.has(fp) && (a.reportedModel ?? a.model) === reported) found.set(fp, a)
  }
  const missing = spec.questions.filter((q) => !found.has(q.fingerprint))
  if (!ask || missing.length === 0) return found
  const { stored } = await askMissing(job, {
    spec,
    model: reported,
    state: row.state,
    hash: row.hash,
    stored: found,
    missing,
  })
  return new Map(stored)
}

function addPair(
  pairs: Map<string, ModelPair>,
  question: string,
  old: StoredAnswer | undefined,
  now: StoredAnswer | undefined,
  rows: number,
): void {
  if (!old || !now) return
  const key = `${question}\0${old.label}\0${now.label}`
  const pair = pairs.get(key)
  pairs.set(key, { question, old_label: old.label, new_label: now.label, rows: (pair?.rows ?? 0) + rows })
}
