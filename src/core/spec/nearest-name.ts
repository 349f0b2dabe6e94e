/**
 * The name among `names` nearest to a mistyped one, or null when none is near: a case slip, a
 * plural, two letters swapped (`tpye`), or up to two letters changed in a name of six or more.
 */
export function nearestName(word: string, names: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = Infinity
  for (const name of names) {
    const d = name.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word.toLowerCase(), name.toLowerCase())
    if (d <= allowed(name) && d < bestDistance) [best, bestDistance] = [name, d]
  }
  return best
}

// One edit for short names, two from six letters on: `no` is not a typo of `yes`.
function allowed(name: string): number {
  return name.length < 3 ? 0 : name.length < 6 ? 1 : 2
}

/** Edits between two words: insertions, deletions, changes, and swaps of two neighbouring letters (each one edit). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}
