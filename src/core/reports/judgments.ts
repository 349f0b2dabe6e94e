import { NodeNeededError } from '../../errors.ts'
import type { Store } from '../../ports/store.ts'
import { driftByQuestion } from './drift.ts'
import { findJudgment } from '../../adapters/files/spec-files.ts'
import type { DriftEntry, Project, RunRecord, Spec } from '../types.ts'

/** Most run records a listing returns (seed 8). */
export const RUNS_LIMIT = 50

/** The one judgment a request is about: `node`, or the only judgment the path selects. */
export function singleJudgment(project: Project, node: string | undefined | null): Spec {
  if (node !== undefined && node !== null) return findJudgment(project, node)
  if (project.selected.length !== 1) {
    throw new NodeNeededError(`this folder holds ${project.selected.length} judgments (${project.selected.map((s) => s.name).join(', ')})`)
  }
  return project.selected[0]
}

/** The runs of the judgments a path selects, newest first, at most 50 (seed 4.2). */
export function runsReport(store: Store, project: Project): RunRecord[] {
  return store.listRuns(project.selected.map((s) => s.name), RUNS_LIMIT)
}

/** Drift per question of one judgment, oldest run first (seed 4.3). */
export function driftReport(store: Store, spec: Spec): Record<string, DriftEntry[]> {
  return driftByQuestion(store.runLabelCounts(spec.name), spec.questions.map((q) => q.name))
}
