/** The candidate closest to a mistyped word, within two edits, or null: `runn` -> `run`. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = 3
  for (const candidate of candidates) {
    const d = candidate.startsWith(word) && word.length >= 2 ? 1 : distance(word.toLowerCase(), candidate)
    if (d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return best
}

/** Levenshtein distance between two short words. */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}
