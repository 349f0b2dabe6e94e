import { resolve } from 'node:path'
import { readConfig, type Config } from '../config.ts'
import { createPlanner, type JudgmentPlan } from '../core/judge/plan.ts'
import { loadProject } from '../adapters/files/spec-files.ts'
import { modelFor, timestamp, type JudgeDeps } from '../core/judge/deps.ts'
import { type Ledger } from '../core/judge/ledger.ts'
import { labelCountsOf, newRunId, runRecord, type RowsOutcome } from '../core/judge/judge-rows.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import { CostCapError, MissingKeyError, UsageError } from '../errors.ts'
import { formatOf, readRows } from '../adapters/files/rows.ts'
import { parseDelimiter } from '../adapters/files/delimiter.ts'
import { createRuntime, specDirOf, type Runtime, type RuntimeOptions } from '../runtime.ts'
import type { CliIo } from './io.ts'
import { plural, table, usd } from './format.ts'

/** What a command works with: the configuration, the project and the runtime for its store. */
export interface Session {
  readonly config: Config
  readonly project: Project
  readonly runtime: Runtime
  readonly deps: JudgeDeps
}

/** Reads the configuration, loads the spec path and opens its store. */
export function openSession(io: CliIo, path: string, options: RuntimeOptions): Session {
  const config = readConfig(io.env, io.cwd)
  const project = loadProject(resolve(io.cwd, path))
  const runtime = createRuntime(config, options)
  return { config, project, runtime, deps: runtime.depsFor(specDirOf(project.path)) }
}

/** A data file to read: its path, its name in messages, and the --delimiter given, if any. */
export interface DataSource {
  readonly file: string
  readonly label: string
  readonly delimiter: string | null
}

/** The data file of a command with its options: --data (else the spec's data:) and --delimiter. */
export function dataSourceOf(io: CliIo, command: string, flags: { data?: string; delimiter?: string }, specs: readonly Spec[]): DataSource {
  const file = dataFileOf(io, command, flags.data, specs)
  if (flags.delimiter !== undefined && formatOf(file) === 'jsonl') {
    throw new UsageError(`--delimiter applies to CSV and other delimited files, not to the JSON Lines file ${flags.data ?? file}`)
  }
  return { file, label: flags.data ?? file, delimiter: flags.delimiter === undefined ? null : parseDelimiter(flags.delimiter) }
}

/** The data file of a command: --data, else the `data:` of the selected judgments, which must agree. */
export function dataFileOf(io: CliIo, command: string, flag: string | undefined, specs: readonly Spec[]): string {
  if (flag !== undefined) return resolve(io.cwd, flag)
  const files = [...new Set(specs.map((s) => s.data))]
  if (files.length === 1 && files[0] !== null) return files[0]
  if (files.length > 1) throw new UsageError(`the judgments name different data files; give --data FILE (judge ${command} --help)`)
  throw new UsageError('no data file: give --data FILE or set data: in the spec')
}

/** Plans the judgments over a data file, reading it once and asking nothing. */
export async function planFile(deps: JudgeDeps, project: Project, specs: readonly Spec[], source: DataSource): Promise<JudgmentPlan[]> {
  const planner = createPlanner(deps, project, specs)
  for await (const { row, where } of readRows(source.file, source.label, source.delimiter)) planner.add(row, where)
  return planner.result()
}

/** The plan as a text table, with each judgment's estimate against the cap. */
export function planTable(plans: readonly JudgmentPlan[], cap: number): string {
  const rows = plans.map((p) => [
    p.judgment, String(p.rows), String(p.states), String(p.cached), String(p.ask), String(p.requests),
    usd(p.estimate), p.estimate > cap ? `over ${usd(cap)}` : `within ${usd(cap)}`,
  ])
  const notes = plans.filter((p) => p.unknown > 0).map((p) => `${p.judgment}: ${plural(p.unknown, 'state')} depend on labels not yet known; counted as asked in full\n`)
  return table(['judgment', 'rows', 'states', 'cached', 'to ask', 'requests', 'estimate', 'cap'], rows) + notes.join('')
}

/** A plan as JSON, with the cap it is checked against. */
export function planJson(plans: readonly JudgmentPlan[], cap: number) {
  return plans.map((p) => ({ ...p, cap, within_cap: p.estimate <= cap }))
}

/** Refuses, asking nothing, a run above the cap (printing its plan) or one that must ask without a key. */
export function refuseBeforeAsking(session: Session, plans: readonly JudgmentPlan[], io: CliIo): void {
  const cap = session.config.maxCost
  const over = plans.find((p) => p.estimate > cap)
  if (over) {
    io.stderr.write(planTable(plans, cap))
    throw new CostCapError(over.judgment, over.ask, over.requests, over.estimate, cap)
  }
  const asking = plans.find((p) => p.ask > 0)
  if (asking && !session.deps.engine) throw new MissingKeyError(asking.judgment)
}

/** Records one run per judgment of an outcome, with its label counts, and returns the records. */
export function recordRuns(session: Session, specs: readonly Spec[], outcome: RowsOutcome, ledger: Ledger, started: Date, sha: string): RunRecord[] {
  const finished = timestamp(session.deps.now())
  return specs.map((spec) => {
    const tally = ledger.tally(spec.name)
    const run = runRecord({
      run_id: newRunId(started), judgment: spec.name, spec_hash: spec.hash, git_sha: sha, model: modelFor(spec, session.deps),
      rows: outcome.rows.get(spec.name) ?? 0, asked: tally.asked, cost: tally.cost, started_at: timestamp(started), finished_at: finished,
      cached: tally.cached, requests: tally.requests, error: outcome.error,
    })
    session.deps.store.recordRun(run, labelCountsOf(outcome, spec.name, run.run_id))
    return run
  })
}
