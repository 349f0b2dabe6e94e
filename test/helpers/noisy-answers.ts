import { createHash } from 'node:crypto'
import type { WireRequest } from '../../src/adapters/system-one/system-one-wire.ts'
import { simulatedAnswers } from './simulated-model.ts'

/** A model with run-to-run sampling noise: on a known share of states, each answer flips with a known probability. */
export interface Noise {
  /** The share of states whose answers are unsteady, 0 to 1 (by a hash of the state, so the same states every time). */
  readonly share: number
  /** The probability that an answer to an unsteady state comes back flipped. */
  readonly flip: number
  /** Draws in [0, 1); Math.random unless a test seeds its own. */
  readonly random?: () => number
}

/** Whether a state's answers are unsteady under `share`: the same states for any run, by a hash of the state. */
export function unsteady(state: unknown, share: number): boolean {
  const bytes = createHash('sha256').update(JSON.stringify(state)).digest()
  return bytes.readUInt32BE(0) / 2 ** 32 < share
}

/**
 * The local engine's answers with noise: the simulated model's answers, each flipped with
 * probability `flip` on unsteady states. A flipped noul answers 1 - p; a flipped choice or score
 * moves each probability to the next label, so the label changes unless the answer was a tie.
 * Between two asks a label then differs with probability 2·flip·(1 - flip) on unsteady states.
 */
export function noisyAnswers(noise: Noise): (body: WireRequest) => Record<string, unknown> {
  const random = noise.random ?? Math.random
  return (body) => {
    const answers = simulatedAnswers(body)
    if (!unsteady(body.state, noise.share)) return answers
    for (const [name, answer] of Object.entries(answers))
      if (random() < noise.flip) answers[name] = flipped(answer as Record<string, unknown>)
    return answers
  }
}

function flipped(answer: Record<string, unknown>): Record<string, unknown> {
  if (answer.type === 'noul') return { ...answer, noul: Math.round((1 - (answer.noul as number)) * 100) / 100 }
  const probabilities = answer.probabilities as Record<string, number>
  const keys = Object.keys(probabilities)
  const moved = Object.fromEntries(keys.map((key, i) => [keys[(i + 1) % keys.length], probabilities[key]]))
  const best = keys.reduce((a, b) => (moved[b] > moved[a] ? b : a))
  return answer.type === 'choice'
    ? { ...answer, probabilities: moved, choice: best }
    : { ...answer, probabilities: moved }
}
