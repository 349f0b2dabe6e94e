import { UsageError } from '../../errors.ts'
import type { Project, Spec } from '../types.ts'

/** The judgments `spec` depends on, directly or not, in dependency order. */
export function dependenciesOf(project: Project, spec: Spec): Spec[] {
  const byName = new Map(project.specs.map((s) => [s.name, s]))
  const needed = new Set<Spec>()
  const pending = [spec]
  while (pending.length > 0) {
    for (const { ref } of pending.pop()!.state) {
      const dep = ref && byName.get(ref.judgment)
      if (!dep || needed.has(dep)) continue
      needed.add(dep)
      pending.push(dep)
    }
  }
  return project.specs.filter((s) => s !== spec && needed.has(s))
}

/** The judgment of the project named `name`; an unknown name is a UsageError listing the known ones. */
export function findJudgment(project: Project, name: string): Spec {
  const spec = project.specs.find((s) => s.name === name)
  if (spec) return spec
  const known = project.specs.map((s) => s.name).join(', ')
  throw new UsageError(`unknown node "${name}"; the judgments here are: ${known}`)
}
