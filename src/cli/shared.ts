import { resolve } from 'node:path'
import { readConfig, type Config } from '../config.ts'
import { loadProject } from '../adapters/files/spec-files.ts'
import { parseDelimiter } from '../adapters/files/delimiter.ts'
import { formatOf } from '../adapters/files/rows.ts'
import { dataFileOf, spendsNothingOn, type RowSource } from '../app/plan.ts'
import type { JudgmentPlan } from '../core/judge/plan.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import { publicRun } from '../app/runs.ts'
import { UsageError } from '../errors.ts'
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts'
import type { CliIo } from './io.ts'
import { table, usd } from './text.ts'
import { costWithSimulated, costWords, plural } from '../format.ts'
import { estimateShare, refillShare, type JuryPlan } from '../app/jury-plan.ts'

/** What a command works with: the configuration, the project named and the runtime (the app). */
export interface Session {
  readonly config: Config
  readonly project: Project
  readonly runtime: Runtime
}

/** Reads the configuration, loads the spec path and opens a runtime for it. */
export function openSession(io: CliIo, path: string, options: RuntimeOptions): Session {
  const config = readConfig(io.env, io.cwd)
  const project = loadProject(resolve(io.cwd, path))
  return { config, project, runtime: createRuntime(config, options) }
}

/** Runs a command's work on a session and closes its stores whatever happens. */
export async function withSession<T>(
  io: CliIo,
  path: string,
  options: RuntimeOptions,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const session = openSession(io, path, options)
  try {
    return await work(session)
  } finally {
    session.runtime.close()
  }
}

/**
 * The rows of a data file a command reads: --data (else the spec's data:, read as its delimiter: and columns: say),
 * with --delimiter when given.
 */
export function dataSourceOf(
  io: CliIo,
  flags: { readonly data?: string; readonly delimiter?: string },
  specs: readonly Spec[],
): Extract<RowSource, { kind: 'file' }> {
  const file = dataFileOf(flags.data === undefined ? undefined : resolve(io.cwd, flags.data), specs)
  const label = flags.data ?? file
  const format = flags.data === undefined ? specs.find((s) => s.data === file)?.dataFormat : undefined
  const read = format === undefined ? {} : { delimiter: format.delimiter, columns: format.columns }
  if (flags.delimiter === undefined) return { kind: 'file', file, label, ...read }
  if (formatOf(file) === 'jsonl')
    throw new UsageError(`--delimiter applies to CSV and other delimited files, not to the JSON Lines file ${label}`)
  return { kind: 'file', file, label, ...read, delimiter: parseDelimiter(flags.delimiter) }
}

/**
 * A cost of a plan line in words: simulated when the line spends nothing; else what it spends, with a jury's simulated
 * jurors' share (`simulated`) beside it when it has any (which spends nothing).
 */
function lineCost(spent: number, free: boolean, simulated: number): string {
  if (free) return costWords(spent, true)
  return simulated > 0 ? costWithSimulated(spent, simulated) : costWords(spent, false)
}

/** The jury plan of a plan line, when its jurors were planned apart. */
const juryOf = (plan: JudgmentPlan, juries: readonly JuryPlan[]) => juries.find((j) => j.judgment === plan.judgment)

/**
 * The plan as a text table, with each judgment's estimate against the cap, then its questions. `juries` (planJuries)
 * gives a jury's simulated jurors' share, said beside what its real jurors spend.
 */
export function planTable(
  plans: readonly JudgmentPlan[],
  cap: number,
  spendsNothing = false,
  juries: readonly JuryPlan[] = [],
): string {
  const free = plans.map((p) => spendsNothingOn(p, spendsNothing))
  const rows = plans.map((p, i) => [
    p.judgment,
    String(p.rows),
    String(p.states),
    String(p.duplicates),
    String(p.cached),
    String(p.ask),
    String(p.requests),
    lineCost(p.estimate, free[i], estimateShareOf(p, juries)),
    free[i] ? 'none' : p.estimate > cap ? `over ${usd(cap)}` : `within ${usd(cap)}`,
  ])
  const held = plans.filter((_, i) => !free[i]).map((p) => p.judgment)
  const but = held.length > 0 ? `; it holds for the real jurors of ${held.join(', ')}` : ''
  const simulated = spendsNothing
    ? [`JUDGE_MAX_COST does not apply to the simulated engine, which spends nothing${but}\n`]
    : []
  const notes = [
    ...simulated,
    ...plans
      .filter((p) => p.unknown > 0)
      .map(
        (p) =>
          `${p.judgment}: ${plural(p.unknown, 'state')} depend on labels not yet known; counted as asked in full\n`,
      ),
  ]
  return (
    table(['judgment', 'rows', 'states', 'duplicates', 'cached', 'to ask', 'requests', 'estimate', 'cap'], rows) +
    notes.join('') +
    questionTable(plans, free, juries)
  )
}

/** A jury line's simulated jurors' share of its estimate; 0 for a line without its jurors planned apart. */
function estimateShareOf(plan: JudgmentPlan, juries: readonly JuryPlan[]): number {
  const jury = juryOf(plan, juries)
  return jury ? estimateShare(jury).simulated : 0
}

/**
 * Per question: whether its wording changed since the judgment's last run, and what asking again costs, worded as its
 * judgment's line is (`free`): for a jury, its jurors' sum at each one's engine and price, the simulated share beside.
 */
function questionTable(plans: readonly JudgmentPlan[], free: readonly boolean[], juries: readonly JuryPlan[]): string {
  const rows = plans.flatMap((p, i) =>
    p.questions.map((q) => [
      `${p.judgment}.${q.question}`,
      q.fingerprint,
      q.last_run_fingerprint === null
        ? 'no run recorded it'
        : q.changed
          ? `changed (was ${q.last_run_fingerprint})`
          : 'unchanged',
      String(q.stale),
      lineCost(q.refill, free[i], refillShareOf(p, q.question, juries)),
    ]),
  )
  return (
    '\n' +
    table(['question', 'fingerprint', 'since the last run', 'answers no longer applying', 'to ask them again'], rows)
  )
}

/** A jury line's simulated jurors' share of asking a question again; 0 for a line without its jurors planned apart. */
function refillShareOf(plan: JudgmentPlan, question: string, juries: readonly JuryPlan[]): number {
  const jury = juryOf(plan, juries)
  return jury ? refillShare(jury, question).simulated : 0
}

/**
 * A plan as JSON, with the cap it is checked against: none (null) for a line that spends nothing (an engine that
 * spends nothing, a jury of simulated jurors); a jury with a real juror is held to it.
 */
export function planJson(plans: readonly JudgmentPlan[], cap: number, spendsNothing = false) {
  return plans.map((p) => {
    const free = spendsNothingOn(p, spendsNothing)
    return { ...p, cap: free ? null : cap, within_cap: free || p.estimate <= cap }
  })
}

/**
 * A run as the CLI's --json gives it: the fields of GET /v1/runs, then cached, requests, duplicates and its fit per
 * question.
 */
export function runJson(run: RunRecord) {
  return {
    ...publicRun(run),
    cached: run.cached,
    requests: run.requests,
    duplicates: run.rows - run.states,
    fit: run.fit ?? {},
    routes: run.routes ?? {},
  }
}
