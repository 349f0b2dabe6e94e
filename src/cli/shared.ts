import { resolve } from 'node:path'
import { readConfig, type Config } from '../config.ts'
import { loadProject } from '../adapters/files/spec-files.ts'
import type { JudgmentPlan } from '../core/judge/plan.ts'
import type { Project } from '../core/types.ts'
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts'
import type { CliIo } from './io.ts'
import { plural, table, usd } from './text.ts'

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
export async function withSession<T>(io: CliIo, path: string, options: RuntimeOptions, work: (session: Session) => Promise<T>): Promise<T> {
  const session = openSession(io, path, options)
  try {
    return await work(session)
  } finally {
    session.runtime.close()
  }
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
