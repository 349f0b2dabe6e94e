/** What mulberry32 adds to its state at each draw. */
const STEP = 0x6d2b79f5

/**
 * A seeded generator of uniform numbers in [0, 1) (mulberry32): the drift test's permutations
 * draw from it, so the same two runs always give the same p value, and the simulations draw their
 * populations from it.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + STEP) >>> 0
    return uniformOf(a)
  }
}

/** The number mulberry32 draws at a state. */
function uniformOf(a: number): number {
  let x = Math.imul(a ^ (a >>> 15), 1 | a)
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296
}

/**
 * The first `n` places of a partial Fisher-Yates shuffle of `pool`, in place, drawing what seededRandom draws from a
 * generator in state `state` (its seed, before the first draw): adds to `counts` each value put there, and returns
 * the state after the draws, where the next shuffle goes on. A permutation test draws millions of numbers; a state
 * held here rather than in a closure stays in a register, which halves the cost of a draw.
 */
export function partialShuffle(state: number, pool: Int32Array, n: number, counts: number[]): number {
  let a = state >>> 0
  for (let i = 0; i < n; i++) {
    a = (a + STEP) >>> 0
    const j = i + Math.floor(uniformOf(a) * (pool.length - i))
    const picked = pool[j]
    pool[j] = pool[i]
    pool[i] = picked
    counts[picked] += 1
  }
  return a
}
