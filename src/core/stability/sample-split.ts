import type { Stratum } from '../review/strata.ts'

/** How many answers of each stratum a stability check asks again. */
export type SampleSplit = Readonly<Record<Stratum, number>>

/**
 * Splits a sample of `n` answers between the strata: half each (the unsure one takes the odd
 * answer), none above a stratum's size, and what one stratum cannot take goes to the other. The
 * unsure stratum is a small share of the answers but where labels flip, so it is sampled far
 * above its share; the estimate weighs each stratum back by its size.
 */
export function splitSample(n: number, sizes: SampleSplit): SampleSplit {
  const half = Math.ceil(n / 2)
  let unsure = Math.min(half, sizes.unsure)
  const confident = Math.min(n - unsure, sizes.confident)
  unsure = Math.min(n - confident, sizes.unsure)
  return { split: 0, unsure, confident }
}
