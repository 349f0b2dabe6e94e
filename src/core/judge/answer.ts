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

/**
 * The `most` most probable labels of a distribution, most probable first (ties in spec order). Each label is put in
 * its place among those kept so far, which keeps the spec's order among ties as a stable sort would; a review queue
 * ranks every row it offers, so this makes no array to sort and none to copy.
 */
export function rankLabels(
  question: Question,
  distribution: Distribution,
  most = Number.POSITIVE_INFINITY,
): { label: string; p: number }[] {
  const ranked: { label: string; p: number }[] = []
  for (const label of question.labels) {
    const p = distribution[label] ?? 0
    let at = ranked.length
    // Strictly more probable labels move up; an equal one stays behind those before it in the spec.
    while (at > 0 && p - ranked[at - 1].p > 0) at -= 1
    if (at >= most) continue
    ranked.splice(at, 0, { label, p })
    if (ranked.length > most) ranked.pop()
  }
  return ranked
}
