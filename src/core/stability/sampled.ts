import type { Reask } from '../../ports/reask-store.ts'
import { routeOf } from '../judge/route.ts'
import type { ActRule } from '../types.ts'
import type { DrawnAnswer } from './reask.ts'

/**
 * Whether a drawn answer's noise can be read from the draws it already holds instead of asking again: its p is the
 * share of k answers asked at a temperature above 0 (source `samples`, k of 2 or more).
 */
export function readFromSamples(d: DrawnAnswer): boolean {
  return d.stored.source === 'samples' && (d.stored.samples ?? 0) >= 2
}

/**
 * The re-ask of a sampled answer, read from its draws and not asked: the second answer is the stored one, with
 * `samples` saying that its figures come from the k draws (flipChance, shareJitter, routeFlipChance).
 */
export function sampledReask(check: string, judgment: string, model: string, d: DrawnAnswer): Reask {
  const { stored } = d
  return {
    check,
    judgment,
    question: d.question.name,
    model,
    fingerprint: d.question.fingerprint,
    stateHash: stored.stateHash,
    stratum: d.stratum,
    stratumSize: d.size,
    stratumSampled: d.sampled,
    storedLabel: stored.label,
    storedP: stored.p,
    storedMargin: stored.margin,
    distribution: stored.distribution,
    label: stored.label,
    p: stored.p,
    margin: stored.margin,
    askedAt: stored.askedAt,
    reportedModel: stored.reportedModel ?? model,
    samples: stored.samples!,
  }
}

/** The chance that one fresh draw names another label than the stored one: 1 - p of the stored label. */
export function flipChance(r: Reask): number {
  return 1 - (r.distribution[r.storedLabel] ?? 0)
}

/** The chances of x = 0..k answers naming a label of per-draw chance p among k draws (the binomial distribution). */
export function binomial(k: number, p: number): number[] {
  const chances: number[] = []
  let choose = 1
  for (let x = 0; x <= k; x++) {
    chances.push(choose * p ** x * (1 - p) ** (k - x))
    choose = (choose * (k - x)) / (x + 1)
  }
  return chances
}

/** The mean |p' - p| of the stored label's share p' among k fresh draws, each naming it with chance p. */
export function shareJitter(k: number, p: number): number {
  return binomial(k, p).reduce((sum, chance, x) => sum + chance * Math.abs(x / k - p), 0)
}

/**
 * The chance that k fresh draws route the answer elsewhere than the stored answer: over the stored label's count x
 * among them, its share x/k against the runner-up's, which takes the other labels' share in the stored proportion (as
 * for two labels it is exactly); the label with the larger share is the fresh answer's, their difference its margin.
 */
export function routeFlipChance(rules: readonly ActRule[], r: Reask, k: number): number {
  const p = r.distribution[r.storedLabel] ?? 0
  const others = Object.entries(r.distribution).filter(([label]) => label !== r.storedLabel)
  const [runnerUp, q] = others.reduce<[string | null, number]>(
    (best, [l, v]) => (v > best[1] ? [l, v] : best),
    [null, 0],
  )
  const stored = routeOf(rules, { label: r.storedLabel, p: r.storedP, margin: r.storedMargin })
  return binomial(k, p).reduce((sum, chance, x) => {
    const share = x / k
    const rival = p < 1 ? ((1 - share) * q) / (1 - p) : 0
    const fresh =
      runnerUp === null || share >= rival
        ? { label: r.storedLabel, p: share, margin: share - rival }
        : { label: runnerUp, p: rival, margin: rival - share }
    return sum + (routeOf(rules, fresh) === stored ? 0 : chance)
  }, 0)
}
