import { createHash } from 'node:crypto'
import type { WireQuestion, WireRequest } from '../../src/adapters/system-one/system-one-wire.ts'

// A stand-in for the decision model, shared by the local System One server and the fake engine:
// answers are made up but stable, so a repeated state gets the same answer, as a cache expects.

/** Answers to every question of a request body, in wire form, as the API would give them. */
export function simulatedAnswers(body: WireRequest): Record<string, unknown> {
  const answers: Record<string, unknown> = {}
  for (const [name, question] of Object.entries(body.questions)) {
    const seed = JSON.stringify([body.state, name, question])
    answers[name] = simulatedAnswer(question, seed)
  }
  return answers
}

function simulatedAnswer(question: WireQuestion, seed: string): object {
  if (question.type === 'noul') return { type: 'noul', noul: simulatedProbabilities(seed, 2)[0] }
  const criteria = question.criteria ?? []
  const levels = Array.isArray(criteria) ? (criteria as readonly string[]) : null
  const keys = levels ? levels.map((_, i) => String(i)) : Object.keys(criteria)
  const p = simulatedProbabilities(seed, keys.length)
  const probabilities = Object.fromEntries(keys.map((key, i) => [key, p[i]]))
  const best = keys[p.indexOf(Math.max(...p))]
  if (!levels) return { type: 'choice', choice: best, probabilities, confidence: confidence(p) }
  const score = round2(p.reduce((sum, pi, i) => sum + pi * i, 0))
  const legend = Object.fromEntries(levels.map((level, i) => [String(i), level]))
  return { type: 'score', score, legend, probabilities, confidence: confidence(p) }
}

/**
 * A plausible distribution over `count` options derived from a hash of `seed`: one option leads,
 * values are rounded to two decimals and sum to 1, and about a quarter of the time the model is
 * certain, which the API writes as the integers 1 and 0.
 */
export function simulatedProbabilities(seed: string, count: number): number[] {
  const bytes = createHash('sha256').update(seed).digest()
  const top = bytes[0] % count
  if (bytes[1] < 64) return Array.from({ length: count }, (_, i) => (i === top ? 1 : 0))
  const lead = 2 + bytes[14] / 16
  const weights = Array.from({ length: count }, (_, i) => 1 + bytes[2 + i] / 32 + (i === top ? lead : 0))
  const total = weights.reduce((sum, w) => sum + w, 0)
  const rounded = weights.map((w) => round2(w / total))
  rounded[top] = round2(rounded[top] + 1 - rounded.reduce((sum, p) => sum + p, 0))
  return rounded
}

function confidence(p: readonly number[]): number {
  const entropy = -p.reduce((sum, pi) => sum + (pi > 0 ? pi * Math.log(pi) : 0), 0)
  return round2(Math.max(0, 1 - entropy / Math.log(p.length)))
}

function round2(value: number): number {
  return Math.round(value * 100) / 100
}
