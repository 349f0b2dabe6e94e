import { timestamp } from '../core/judge/deps.ts'
import { labelCountsOf, newRunId, type RowsOutcome } from '../core/judge/judge-rows.ts'
import type { RunRecord } from '../core/types.ts'
import { HEARTBEAT_MS, settleAbandoned, THIS_PROCESS, type RunProcess } from './abandoned-runs.ts'
import type { App } from './app.ts'
import { recordRuns, runOf, type Pass } from './record-runs.ts'

/** A pass before its rows are judged: everything of it but the outcome. */
export type PassStart = Omit<Pass, 'outcome' | 'runIds'>

/** The runs of a pass kept open while its rows are judged. */
export interface OpenPass {
  /** The run id of each recorded judgment, which its record keeps. */
  readonly runIds: ReadonlyMap<string, string>
  /** Takes the outcome as it stands; written down once per turn of the event loop in which the spend moved. */
  progress(outcome: RowsOutcome): void
  /** Writes down what is pending and stops the heartbeat. */
  stop(): void
}

/** Options of openPass: this process by default, another clock or heartbeat in tests. */
export interface OpenPassOptions {
  readonly self?: RunProcess
  readonly heartbeatMs?: number
}

/**
 * Opens the runs of a pass in its store (ports/run-store.ts, OpenRun), after recording the store's
 * abandoned runs: each is written down as it stands when judging starts, again in the turn in which
 * an answer was stored (its spend, answers, rows and label counts so far), and every HEARTBEAT_MS
 * in any case, so that a process killed midway leaves its spend for the next one to record.
 */
export async function openPass(app: App, pass: PassStart, options: OpenPassOptions = {}): Promise<OpenPass> {
  const self = options.self ?? THIS_PROCESS
  const deps = app.depsFor(pass.project)
  settleAbandoned(deps.store, app.now(), self)
  const sha = await app.files.gitSha(pass.project.dir)
  const runIds = new Map(pass.record.map((spec) => [spec.name, newRunId(pass.started)]))
  let outcome: RowsOutcome | null = null
  let spent = -1
  let pending: NodeJS.Immediate | null = null
  const spendOf = () =>
    pass.record.reduce(
      (sum, spec) => sum + pass.ledger.tally(spec.name).requests + pass.ledger.tally(spec.name).asked,
      0,
    )
  const write = (): void => {
    pending = null
    if (outcome === null) return
    const now = timestamp(app.now())
    const at: Pass = { ...pass, outcome, runIds }
    for (const spec of pass.record) {
      // The fit is left out: worked out from every state, it is the final record's.
      const run: RunRecord = { ...runOf(deps, at, spec, sha, now, {}), status: 'running' }
      deps.store.putOpenRun({
        run,
        counts: labelCountsOf(outcome, spec.name, run.run_id),
        pid: self.pid,
        host: self.host,
        heartbeat_at: now,
      })
    }
  }
  // A write that fails (a busy store) leaves the last one standing; the run's own record is what counts.
  const safely = () => {
    try {
      write()
    } catch {
      pending = null
    }
  }
  const heartbeat = setInterval(safely, options.heartbeatMs ?? HEARTBEAT_MS)
  heartbeat.unref()
  return {
    runIds,
    progress(now) {
      const first = outcome === null
      outcome = now
      const spend = spendOf()
      if (first) {
        spent = spend
        return safely()
      }
      if (spend === spent || pending !== null) return
      spent = spend
      pending = setImmediate(safely)
    },
    stop() {
      clearInterval(heartbeat)
      if (pending === null) return
      clearImmediate(pending)
      safely()
    },
  }
}

/**
 * Judges a pass's rows with its runs open as they go (openPass), then records them (recordRuns):
 * the way every command that records runs judges.
 */
export async function judgePass(
  app: App,
  pass: PassStart,
  judge: (progress: (outcome: RowsOutcome) => void) => Promise<RowsOutcome>,
): Promise<RunRecord[]> {
  const open = await openPass(app, pass)
  let outcome: RowsOutcome
  try {
    outcome = await judge(open.progress)
  } finally {
    open.stop()
  }
  return recordRuns(app, { ...pass, outcome, runIds: open.runIds })
}
