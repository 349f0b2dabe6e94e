import { UsageError } from '../errors.ts'
import type { Answers, Project, Spec } from './types.ts'
import type { SpecResult } from './judge-row.ts'

/**
 * The judgments a request selects: the named node, or every judgment the path selects. Without a
 * node, two selected judgments that share a question name cannot be merged: that is a UsageError.
 */
export function selectJudgments(project: Project, node: string | undefined | null): Spec[] {
  if (node !== undefined && node !== null) {
    const spec = project.specs.find((s) => s.name === node)
    if (!spec) {
      throw new UsageError(`unknown node "${node}"; the judgments here are: ${project.specs.map((s) => s.name).join(', ')}`)
    }
    return [spec]
  }
  const owner = new Map<string, string>()
  for (const spec of project.selected) {
    for (const q of spec.questions) {
      const other = owner.get(q.name)
      if (other) {
        throw new UsageError(`judgments ${other} and ${spec.name} both ask question ${q.name}; name one with node`)
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
  const wanted = new Set<string>()
  const want = (spec: Spec): void => {
    if (wanted.has(spec.name)) return
    wanted.add(spec.name)
    for (const c of spec.state) {
      const dep = c.ref && project.specs.find((s) => s.name === c.ref!.judgment)
      if (dep) want(dep)
    }
  }
  for (const spec of specs) want(spec)
  return project.specs.filter((s) => wanted.has(s.name))
}

/** The judgments a command works on: the named node, or every judgment the path selects. */
export function nodeOrAll(project: Project, node: string | undefined | null): Spec[] {
  if (node === undefined || node === null) return [...project.selected]
  const spec = project.specs.find((s) => s.name === node)
  if (!spec) throw new UsageError(`unknown node "${node}"; the judgments here are: ${project.specs.map((s) => s.name).join(', ')}`)
  return [spec]
}
