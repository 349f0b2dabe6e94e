import { NodeNeededError } from '../../errors.ts'
import { dependenciesOf, findJudgment } from '../../adapters/files/spec-files.ts'
import type { Answers, Project, Spec } from '../types.ts'
import type { SpecResult } from './judge-row.ts'

/**
 * The judgments a request selects: the named node, or every judgment the path selects. Without a
 * node, two selected judgments that share a question name cannot be merged: that is a UsageError.
 */
export function selectJudgments(project: Project, node: string | undefined | null): Spec[] {
  if (node !== undefined && node !== null) return [findJudgment(project, node)]
  const owner = new Map<string, string>()
  for (const spec of project.selected) {
    for (const q of spec.questions) {
      const other = owner.get(q.name)
      if (other) {
        throw new NodeNeededError(`judgments ${other} and ${spec.name} both ask question ${q.name}`)
      }
      owner.set(q.name, spec.name)
    }
  }
  return [...project.selected]
}

/** The answers of the selected judgments, merged by question name. */
export function mergeAnswers(results: ReadonlyMap<string, SpecResult>, selected: readonly Spec[]): Answers {
  const merged: Answers = {}
  for (const spec of selected) Object.assign(merged, results.get(spec.name)!.answers)
  return merged
}

/** The given judgments and every judgment they depend on, in the project's dependency order. */
export function withDependencies(project: Project, specs: readonly Spec[]): Spec[] {
  const wanted = new Set(specs.flatMap((spec) => [...dependenciesOf(project, spec), spec]))
  return project.specs.filter((s) => wanted.has(s))
}

/** The judgments a command works on: the named node, or every judgment the path selects. */
export function nodeOrAll(project: Project, node: string | undefined | null): Spec[] {
  if (node === undefined || node === null) return [...project.selected]
  return [findJudgment(project, node)]
}
