import type { Spec } from '../types.ts'

/**
 * What can differ in how two specs ask a question of the same name: its wording or labels (`question`: the
 * fingerprint), the model, the state it reads, or the store its answers are kept in.
 */
export type Change = 'question' | 'model' | 'state' | 'store'

/** How a report names each change. */
export const CHANGE_WORDS: Readonly<Record<Change, string>> = {
  question: 'wording or labels',
  model: 'model',
  state: 'state',
  store: 'store',
}

/** One side of a comparison: every judgment of its folder, and the model each is asked of. */
export interface AskingSide {
  readonly specs: readonly Spec[]
  readonly modelOf: (spec: Spec) => string
}

/**
 * What differs in how the candidate judgment asks `question` from how the live one asks it, of the
 * parts of its answers' cache key: the question's fingerprint (type, wording, labels and their
 * descriptions), the model, and the state (the same columns in the same order; a label of another
 * judgment read from a question that is itself asked alike). Empty: on the same store the
 * candidate's answers are the live ones by construction.
 */
export function questionChanges(
  live: AskingSide,
  candidate: AskingSide,
  pair: { readonly live: Spec; readonly candidate: Spec },
  question: string,
): Change[] {
  const fingerprint = (spec: Spec) => spec.questions.find((q) => q.name === question)!.fingerprint
  const changes: Change[] = []
  if (fingerprint(pair.live) !== fingerprint(pair.candidate)) changes.push('question')
  if (live.modelOf(pair.live) !== candidate.modelOf(pair.candidate)) changes.push('model')
  if (stateChanged(live, candidate, pair.live, pair.candidate)) changes.push('state')
  return changes
}

/**
 * Whether the two judgments read their rows otherwise. A column naming another judgment's question
 * has the same name on both sides only when it names the same one, which a loaded folder holds.
 */
function stateChanged(live: AskingSide, candidate: AskingSide, l: Spec, c: Spec): boolean {
  if (l.state.length !== c.state.length) return true
  return l.state.some((column, i) => {
    if (column.name !== c.state[i].name) return true
    if (!column.ref) return false
    const { judgment, question } = column.ref
    const dependency = (side: AskingSide) => side.specs.find((s) => s.name === judgment)!
    return (
      questionChanges(live, candidate, { live: dependency(live), candidate: dependency(candidate) }, question).length >
      0
    )
  })
}
