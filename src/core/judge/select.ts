import { NodeNeededError } from '../../errors.ts'
import { dependenciesOf, findJudgment } from '../spec/project.ts'
import type { Answers, Project, Spec } from '../types.ts'

/**
 * How an operation takes the judgments a path selects when none is named: `all` of them (a
 * command over a data file), exactly `one` (a queue or a drift report), or all of them `merged`
 * into one answer per question (the judge operation).
 */
export type Selection = 'all' | 'one' | 'merged'

/**
 * The judgments an operation works on: the named one (an unknown name is a UsageError listing the
 * known ones), else the path's judgments as `selection` takes them. The one rule for CLI, server
 * and library alike.
 */
export function selectJudgments(project: Project, judgment: string | undefined | null, selection: Selection): Spec[] {
  if (judgment !== undefined && judgment !== null) return [findJudgment(project, judgment)]
  const names = () => project.selected.map((s) => s.name).join(', ')
  if (selection === 'one' && project.selected.length !== 1) {
    throw new NodeNeededError(`this folder holds ${project.selected.length} judgments (${names()})`)
  }
  if (selection === 'merged') refuseSharedQuestions(project.selected)
  return [...project.selected]
}

// Answers merge by question name, so two judgments asking the same question cannot both answer.
function refuseSharedQuestions(specs: readonly Spec[]): void {
  const owner = new Map<string, string>()
  for (const spec of specs) {
    for (const q of spec.questions) {
      const other = owner.get(q.name)
      if (other) throw new NodeNeededError(`judgments ${other} and ${spec.name} both ask question ${q.name}`)
      owner.set(q.name, spec.name)
    }
  }
}

/** The answers of the selected judgments, merged by question name. */
export function mergeAnswers(
  results: ReadonlyMap<string, { readonly answers: Answers }>,
  selected: readonly Spec[],
): Answers {
  const merged: Answers = {}
  for (const spec of selected) Object.assign(merged, results.get(spec.name)!.answers)
  return merged
}

/** The given judgments and every judgment they depend on, in the project's dependency order. */
export function withDependencies(project: Project, specs: readonly Spec[]): Spec[] {
  const wanted = new Set(specs.flatMap((spec) => [...dependenciesOf(project, spec), spec]))
  return project.specs.filter((s) => wanted.has(s))
}
