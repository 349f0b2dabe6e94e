import type { LabelCount, ModelCheck, RunRecord, RunState } from '../../src/core/types.ts'
import type { OpenRun, RunLabelCount } from '../../src/ports/run-store.ts'
import type { Store } from '../../src/ports/store.ts'

/** A label count as the store keeps it: its states and squares null when not given. */
type Stored = LabelCount & { readonly states: number | null; readonly squares: number | null }

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const newestFirst = (a: RunRecord, b: RunRecord): number =>
  byText(b.started_at, a.started_at) || byText(b.run_id, a.run_id)

/** The limit as the SQLite adapter reads it: 0 or less is none, Infinity is all. */
function take<T>(items: T[], limit: number): T[] {
  if (limit === Infinity) return items
  return items.slice(0, Number.isFinite(limit) ? Math.max(0, Math.trunc(limit)) : 0)
}

/** The run methods of the in-memory Store, with the SQLite adapter's observable behaviour. */
export function createMemoryRuns(): Pick<
  Store,
  | 'recordRun'
  | 'listRuns'
  | 'latestRuns'
  | 'runLabelCounts'
  | 'getRun'
  | 'runStates'
  | 'runStatesPage'
  | 'runStateCount'
  | 'deleteRunStates'
  | 'sameRunStates'
  | 'recordModelCheck'
  | 'modelChecks'
  | 'putOpenRun'
  | 'openRuns'
  | 'closeOpenRun'
> {
  const runs = new Map<string, RunRecord>()
  const runLabels = new Map<string, Map<string, Stored>>()
  const runStates = new Map<string, RunState[]>()
  const checks = new Map<string, ModelCheck>()
  // Kept as JSON text, as the adapter keeps them.
  const open = new Map<string, string>()
  const statesOf = (runId: string) => runStates.get(runId) ?? []
  const put = (run: RunRecord, counts: readonly LabelCount[], states: Iterable<RunState>) => {
    runs.set(run.run_id, runRecord(run))
    const labels = new Map<string, Stored>()
    // As SQL adds them: a repeated label adds up, and an unknown (null) part stays unknown.
    const plus = (a: number | null | undefined, b: number | null | undefined) =>
      a === null || b === null || b === undefined ? null : a === undefined ? b : a + b
    for (const c of counts) {
      const id = `${c.question}\0${c.label}`
      const before = labels.get(id)
      labels.set(id, {
        run_id: run.run_id,
        question: c.question,
        label: c.label,
        count: (before?.count ?? 0) + c.count,
        states: plus(before?.states, c.states),
        squares: plus(before?.squares, c.squares),
      })
    }
    runLabels.set(run.run_id, labels)
    runStates.set(
      run.run_id,
      [...states].map((s) => ({ ...s })).sort((a, b) => byText(a.stateHash, b.stateHash)),
    )
  }
  return {
    recordRun(run, counts, states = []) {
      open.delete(run.run_id)
      put(run, counts, states)
    },
    putOpenRun(entry) {
      open.set(entry.run.run_id, JSON.stringify(entry))
    },
    openRuns() {
      return [...open.keys()].sort(byText).map((id) => JSON.parse(open.get(id)!) as OpenRun)
    },
    closeOpenRun(run, counts) {
      if (!open.delete(run.run_id)) return false
      put(run, counts, [])
      return true
    },
    listRuns(judgments, limit) {
      const wanted = new Set(judgments)
      return take([...runs.values()].filter((run) => wanted.has(run.judgment)).sort(newestFirst), limit).map(runRecord)
    },
    latestRuns() {
      const latest = new Map<string, RunRecord>()
      for (const run of [...runs.values()].sort(newestFirst))
        if (!latest.has(run.judgment)) latest.set(run.judgment, run)
      return [...latest.values()].sort((a, b) => byText(a.judgment, b.judgment)).map(runRecord)
    },
    runLabelCounts(judgment) {
      const chosen = [...runs.values()].filter((run) => run.judgment === judgment).sort((a, b) => newestFirst(b, a))
      return chosen.flatMap((run) =>
        [...(runLabels.get(run.run_id)?.values() ?? [])].map(
          (c): RunLabelCount => ({
            ...c,
            rows: run.rows,
            started_at: run.started_at,
            status: run.status,
            command: run.command,
            source: run.source,
            reported_model: run.reported_model,
          }),
        ),
      )
    },
    runStates(runId, from, limit) {
      const all = statesOf(runId)
      const start = all.findIndex((s) => s.stateHash >= from)
      const ordered = start < 0 ? all : [...all.slice(start), ...all.slice(0, start)]
      return take(ordered, limit).map((s) => ({ ...s }))
    },
    getRun(runId) {
      const run = runs.get(runId)
      return run ? runRecord(run) : null
    },
    runStatesPage(runId, offset, limit) {
      const from = Math.max(0, Math.trunc(offset) || 0)
      return take(statesOf(runId).slice(from), limit).map((s) => ({ ...s }))
    },
    runStateCount(runId) {
      return statesOf(runId).length
    },
    deleteRunStates(runIds) {
      let deleted = 0
      for (const runId of runIds) {
        deleted += statesOf(runId).length
        runStates.delete(runId)
      }
      return deleted
    },
    sameRunStates(a, b) {
      const [x, y] = [statesOf(a), statesOf(b)]
      return x.length === y.length && x.every((s, i) => s.stateHash === y[i].stateHash && s.rows === y[i].rows)
    },
    recordModelCheck(check) {
      if (!runs.has(check.run_id)) throw new Error(`FOREIGN KEY constraint failed: no run ${check.run_id}`)
      checks.set(check.run_id, structuredClone(check))
    },
    modelChecks(judgment) {
      const chosen = [...runs.values()].filter((run) => run.judgment === judgment).sort((a, b) => newestFirst(b, a))
      return chosen.flatMap((run) => (checks.has(run.run_id) ? [structuredClone(checks.get(run.run_id)!)] : []))
    },
  }
}

/** A copy of a run record with its fields in the order of the `_judge_runs` columns. */
function runRecord(run: RunRecord): RunRecord {
  return {
    run_id: run.run_id,
    judgment: run.judgment,
    spec_hash: run.spec_hash,
    git_sha: run.git_sha,
    model: run.model,
    rows: run.rows,
    asked: run.asked,
    cost: run.cost,
    status: run.status,
    started_at: run.started_at,
    finished_at: run.finished_at,
    cached: run.cached,
    requests: run.requests,
    command: run.command,
    source: run.source,
    source_hash: run.source_hash,
    node: run.node,
    reported_model: run.reported_model,
    states: run.states,
    fingerprints: { ...run.fingerprints },
    fit: structuredClone(run.fit ?? {}),
    routes: structuredClone(run.routes ?? {}),
    sources: structuredClone(run.sources ?? {}),
  }
}
