import { UsageError } from '../../errors.ts'
import { stateHash, stateValue } from '../judge/state.ts'
import type { Project, Row, Spec } from '../types.ts'

/** A state hash as the store keys it: 16 lowercase hex digits. */
export const STATE_HASH = /^[0-9a-f]{16}$/

/** Checks a state hash given to forget (`--state`, `state`): 16 lowercase hex digits, or a UsageError. */
export function checkStateHash(text: string): string {
  if (STATE_HASH.test(text)) return text
  throw new UsageError(
    'a state hash is 16 lowercase hex digits (as judge runs and the review page show), ' +
      `not ${JSON.stringify(text.slice(0, 40))}`,
  )
}

/**
 * The state hashes a row may have been stored under by the given judgments: for each judgment
 * whose own state columns the row holds, the state those values make. A column naming another
 * judgment's label (`spam.is_spam`) that the row does not give takes each label of that question
 * in turn, since the row was stored with whichever label the upstream judgment gave it. A row
 * holding no judgment's columns is a UsageError naming the columns it lacks.
 */
export function rowStates(row: Row, specs: readonly Spec[], project: Project): string[] {
  const hashes = new Set<string>()
  for (const spec of specs) {
    const choices = columnChoices(row, spec, project)
    if (choices !== null) for (const state of product(choices)) hashes.add(stateHash(state))
  }
  if (hashes.size > 0) return [...hashes]
  const wanted = [...new Set(specs.flatMap((s) => s.state.filter((c) => !c.ref).map((c) => c.name)))]
  throw new UsageError(
    `the row holds the state columns of no judgment of ${project.path}: ` +
      `it needs ${wanted.map((c) => JSON.stringify(c)).join(', ')}`,
  )
}

/**
 * Each state column of a judgment with the values it may hold for the row, or null when the row lacks one of its own.
 */
function columnChoices(row: Row, spec: Spec, project: Project): [string, string[]][] | null {
  const choices: [string, string[]][] = []
  for (const column of spec.state) {
    if (Object.hasOwn(row, column.name)) choices.push([column.name, [stateValue(row[column.name])]])
    else if (!column.ref) return null
    else {
      const upstream = project.specs
        .find((s) => s.name === column.ref!.judgment)
        ?.questions.find((q) => q.name === column.ref!.question)
      if (!upstream) return null
      choices.push([column.name, [...upstream.labels]])
    }
  }
  return choices
}

/** Every state the choices make, columns in their order. */
function product(choices: readonly [string, readonly string[]][]): Record<string, string>[] {
  let states: Record<string, string>[] = [{}]
  for (const [name, values] of choices)
    states = states.flatMap((state) => values.map((value) => ({ ...state, [name]: value })))
  return states
}
