import type { Distribution, Question } from '../types.ts'

/** Label, probability and margin read off a distribution. */
export interface Reading {
  readonly label: string
  readonly p: number
  readonly margin: number
}

/** Rounds away floating-point noise (0.7 - 0.3 = 0.39999999999999997) without hiding real digits. */
export function tidy(x: number): number {
  return Math.round(x * 1e9) / 1e9
}

/**
 * Reads an answer off a question's distribution: the most probable label (ties go to the first in
 * spec order), its probability, and the margin over the second most probable label.
 */
export function readDistribution(question: Question, distribution: Distribution): Reading {
  let best = -1
  let second = -1
  let label = question.labels[0]
  for (const candidate of question.labels) {
    const p = distribution[candidate] ?? 0
    if (p > best) {
      second = best
      best = p
      label = candidate
    } else if (p > second) {
      second = p
    }
  }
  return { label, p: tidy(best), margin: tidy(best - Math.max(second, 0)) }
}

/** The labels of a distribution ordered most probable first (ties in spec order). */
export function rankLabels(question: Question, distribution: Distribution): { label: string; p: number }[] {
  return question.labels
    .map((label, index) => ({ label, p: distribution[label] ?? 0, index }))
    .sort((a, b) => b.p - a.p || a.index - b.index)
    .map(({ label, p }) => ({ label, p }))
}
