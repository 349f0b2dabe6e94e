import { verdictKey, verdictText, type Verdict, type Verdicts } from '../core/review/verdicts.ts'
import type { Project, RunRecord, Spec, State } from '../core/types.ts'
import { NotFoundError } from '../errors.ts'
import type { AnswerStore } from '../ports/answer-store.ts'
import type { RunStore } from '../ports/run-store.ts'
import type { App } from './app.ts'
import { withFitStates } from './fit.ts'

/** Rows of a run per page of its run page. */
export const RUN_PAGE_SIZE = 50

/** One question's answer to a row of a run, and the verdict standing on it. */
export interface RunAnswer {
  readonly label: string
  readonly p: number
  readonly margin: number
  /** The row's standing verdict on this question, in the words of its button; null when none. */
  readonly verdict: { readonly verdict: Verdict; readonly text: string } | null
}

/** One distinct state a run judged: its values, how many of the run's rows had it, and its answers. */
export interface RunRow {
  readonly state_hash: string
  readonly rows: number
  /** The state's values; null when the store does not hold them. */
  readonly state: State | null
  /** Per question of the spec: the answer in the store for the run's model, or null when there is none. */
  readonly answers: Readonly<Record<string, RunAnswer | null>>
}

/** A run, its label counts and one page of its rows with their answers. */
export interface RunDetail {
  /** The run's record; its fit names its rows of lowest mass with their values (app/fit.ts). */
  readonly run: RunRecord
  /** Whether the spec has changed since the run (its hash differs): answers are read for today's wording. */
  readonly spec_changed: boolean
  /** Rows per label of each question, in the spec's order of labels. */
  readonly labels: Readonly<Record<string, Readonly<Record<string, number>>>>
  /** Distinct states recorded for the run; 0 for a run recorded before runs kept their states. */
  readonly states: number
  /** Whether the run's row list was deleted (`judge runs --prune`): its states are counted but no longer listed. */
  readonly rows_pruned: boolean
  readonly page: { readonly number: number; readonly pages: number; readonly size: number; readonly first: number }
  readonly rows: readonly RunRow[]
}

/**
 * One run of a project's judgments with its label counts and the page `page` (from 1) of its
 * distinct states in state-hash order, each with its values, its answers for the run's model and
 * the spec's questions, and the verdicts standing on them. Asks the engine nothing; a run the
 * store does not hold for these judgments is a NotFoundError.
 */
export async function runDetail(
  app: App,
  project: Project,
  runId: string,
  page: number,
  size = RUN_PAGE_SIZE,
): Promise<RunDetail> {
  const store = app.existingStore(project)
  const run = store?.getRun(runId) ?? null
  const spec = run && project.specs.find((s) => s.name === run.judgment)
  if (!store || !run || !spec)
    throw new NotFoundError(
      `no run ${JSON.stringify(runId.slice(0, 60))} of ${project.specs.map((s) => s.name).join(', ')} in the ` +
        `store of ${project.path}`,
    )
  const states = run.states
  const pages = Math.max(1, Math.ceil(states / size))
  const number = Math.min(Math.max(1, Math.trunc(page)), pages)
  const listed = store.runStatesPage(runId, (number - 1) * size, size)
  const rows = rowsOf(store, spec, run, listed, await app.files.verdicts(spec))
  return {
    run: { ...run, fit: withFitStates(store, run.fit) },
    spec_changed: run.spec_hash !== spec.hash,
    labels: labelsOf(store, spec, runId),
    states,
    rows_pruned: states > 0 && listed.length === 0,
    page: { number, pages, size, first: listed.length === 0 ? 0 : (number - 1) * size + 1 },
    rows,
  }
}

function rowsOf(
  store: AnswerStore,
  spec: Spec,
  run: RunRecord,
  listed: readonly { stateHash: string; rows: number }[],
  verdicts: Verdicts,
): RunRow[] {
  const values = store.getStates(listed.map((s) => s.stateHash))
  const fingerprints = spec.questions.map((q) => q.fingerprint)
  return listed.map(({ stateHash, rows }) => {
    const stored = store.getAnswers(run.model, stateHash, fingerprints)
    const answers = Object.fromEntries(
      spec.questions.map((q): [string, RunAnswer | null] => {
        const answer = stored.get(q.fingerprint)
        if (!answer) return [q.name, null]
        const { label, p, margin } = answer
        const v = verdicts.get(verdictKey(spec.name, q.name, stateHash))
        return [q.name, { label, p, margin, verdict: v ? { verdict: v.verdict, text: verdictText(v) } : null }]
      }),
    )
    return { state_hash: stateHash, rows, state: values.get(stateHash) ?? null, answers }
  })
}

/** The run's label counts per question: the spec's labels in order (0 when none), then any others it recorded. */
function labelsOf(store: RunStore, spec: Spec, runId: string): Record<string, Record<string, number>> {
  const counts = store.runLabelCounts(spec.name).filter((c) => c.run_id === runId)
  const questions = [...new Set([...spec.questions.map((q) => q.name), ...counts.map((c) => c.question)])]
  return Object.fromEntries(
    questions.map((question) => {
      const labels = spec.questions.find((q) => q.name === question)?.labels ?? []
      const mine = counts.filter((c) => c.question === question)
      const all = [...new Set([...labels, ...mine.map((c) => c.label)])]
      return [
        question,
        Object.fromEntries(all.map((label) => [label, mine.find((c) => c.label === label)?.count ?? 0])),
      ]
    }),
  )
}
