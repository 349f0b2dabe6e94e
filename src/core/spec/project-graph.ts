import { basename } from 'node:path'
import { SpecError } from '../../errors.ts'
import { defaultName, JUDGMENT_NAME } from './spec-parse.ts'
import type { Spec, StateColumn } from '../types.ts'

type Ref = NonNullable<StateColumn['ref']>

/** One spec file of a folder: parsed, or the error that stopped it. */
export type LoadedSpec =
  | { readonly file: string; readonly spec: Spec }
  | { readonly file: string; readonly error: SpecError }

/** A folder's judgments, checked and in dependency order, and the ones the path selects. */
export interface Resolved {
  readonly specs: Spec[]
  readonly selected: Spec[]
}

/**
 * Checks the chaining among a folder's specs (given in file-name order) and orders them,
 * dependencies first and by file name otherwise. With no `selectedFile` every spec must load and
 * resolve. With one, only that spec and what it depends on must: a broken sibling, such as a
 * candidate being edited, is left out instead of stopping the judgments that do not use it.
 */
export function resolveProject(loaded: readonly LoadedSpec[], selectedFile: string | null): Resolved {
  const failed = loaded.flatMap((l) => ('error' in l ? [l] : []))
  const strictFailure = selectedFile === null ? failed[0] : failed.find((l) => l.file === selectedFile)
  if (strictFailure) throw strictFailure.error
  const all = loaded.flatMap((l) => ('spec' in l ? [l.spec] : []))
  const graph: Graph = { byName: Map.groupBy(all, (s) => s.name), failed, depsOf: new Map() }
  const roots = selectedFile === null ? all : all.filter((s) => s.file === selectedFile)
  for (const spec of roots) visit(graph, spec, [])
  for (const spec of all) {
    try {
      visit(graph, spec, [])
    } catch (error) {
      if (!(error instanceof SpecError)) throw error
    }
  }
  const specs = ordered(graph, all)
  return { specs, selected: selectedFile === null ? specs : roots }
}

interface Graph {
  readonly byName: ReadonlyMap<string, readonly Spec[]>
  readonly failed: readonly { readonly file: string; readonly error: SpecError }[]
  /** The direct dependencies of every spec found valid so far. */
  readonly depsOf: Map<Spec, Spec[]>
}

/** Checks `spec` and everything it depends on, recording their dependencies; a problem is a SpecError. */
function visit(graph: Graph, spec: Spec, trail: Spec[]): void {
  if (graph.depsOf.has(spec)) return
  checkUnique(graph, spec)
  trail.push(spec)
  const deps: Spec[] = []
  for (const [index, column] of spec.state.entries()) {
    if (!column.ref) continue
    const dep = target(graph, spec, index, column.ref)
    const at = trail.indexOf(dep)
    if (at >= 0) {
      const cycle = [...trail.slice(at), dep].map((s) => s.name).join(' -> ')
      throw new SpecError(spec.file, `state[${index}]`, `"${column.name}" makes a cycle: ${cycle}`)
    }
    visit(graph, dep, trail)
    deps.push(dep)
  }
  trail.pop()
  graph.depsOf.set(spec, deps)
}

function target(graph: Graph, spec: Spec, index: number, ref: Ref): Spec {
  const path = `state[${index}]`
  const [dep] = graph.byName.get(ref.judgment) ?? []
  if (!dep) {
    // The judgment may be the one whose file fails to load; its own error says more.
    const broken = graph.failed.find((f) => defaultName(f.file) === ref.judgment)
    if (broken) throw broken.error
    const known = [...graph.byName.keys()].join(', ')
    throw new SpecError(
      spec.file,
      path,
      `"${spec.state[index].name}" names the judgment "${ref.judgment}", which is not in this folder ` +
        `(the judgments are ${known}; a state entry judgment.question is the label another judgment gives)`,
    )
  }
  if (!dep.questions.some((q) => q.name === ref.question)) {
    const known = dep.questions.map((q) => q.name).join(', ')
    const problem = `the judgment "${dep.name}" has no question "${ref.question}"; its questions are ${known}`
    throw new SpecError(spec.file, path, problem)
  }
  return dep
}

function checkUnique(graph: Graph, spec: Spec): void {
  const same = graph.byName.get(spec.name)!
  if (same.length < 2) return
  const [first, second] = same
  const other = spec === first ? second : first
  const free = (n: string) => JUDGMENT_NAME.test(n) && !graph.byName.has(n)
  let copy = defaultName(other.file)
  for (let i = 2; !free(copy); i++) copy = `${spec.name}-${i}`
  const fix =
    `: give one of them a name of its own, such as name: ${copy} in ${basename(other.file)} (a name keeps its ` +
    'runs and answers apart), or move the copy to a folder of its own'
  throw new SpecError(
    spec.file,
    'name',
    `the judgment name "${spec.name}" is also used by ${basename(other.file)}${fix}`,
  )
}

/** The checked specs among `specs`, dependencies first, by file name otherwise. */
function ordered(graph: Graph, specs: readonly Spec[]): Spec[] {
  const pending = specs.filter((s) => graph.depsOf.has(s))
  const placed = new Set<Spec>()
  while (placed.size < pending.length) {
    // Acyclic by now, so some pending spec always has every dependency placed.
    const next = pending.find((s) => !placed.has(s) && graph.depsOf.get(s)!.every((d) => placed.has(d)))!
    placed.add(next)
  }
  return [...placed]
}
