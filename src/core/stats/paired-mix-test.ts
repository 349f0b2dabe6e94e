import { hash, PERMUTATIONS } from './mix-test.ts'
import { seededRandom } from './seeded-random.ts'

/** How many rows of a check got one label from the old model and one from the new. */
export interface LabelPairCount {
  readonly old_label: string
  readonly new_label: string
  readonly rows: number
}

/**
 * The p value of "the old and the new model give one label mix" on the same rows, from a model
 * check's label pairs of one question. The rows are paired, so the test is the exact one for
 * pairs: under the hypothesis each row's two labels are exchangeable, so PERMUTATIONS draws swap
 * each discordant row's pair with probability ½ and the statistic (how far the two mixes are
 * apart, in rows) is compared with the observed one; rows both models label alike move nothing.
 * Seeded by the pairs, so the same check always gets the same p value. 1 without a discordant row.
 */
export function pairedMixPValue(pairs: readonly LabelPairCount[]): number {
  const discordant = pairs
    .filter((p) => p.old_label !== p.new_label && p.rows > 0)
    .sort((a, b) => `${a.old_label}\0${a.new_label}`.localeCompare(`${b.old_label}\0${b.new_label}`))
  if (discordant.length === 0) return 1
  const labels = [...new Set(discordant.flatMap((p) => [p.old_label, p.new_label]))]
  const index = new Map(labels.map((l, i) => [l, i]))
  const statistic = (swapped: readonly number[]) => {
    const diff = labels.map(() => 0)
    discordant.forEach((p, i) => {
      const kept = p.rows - swapped[i]
      // Old minus new: a kept pair moves one row from its old label to its new, a swapped pair back.
      diff[index.get(p.old_label)!] += kept - swapped[i]
      diff[index.get(p.new_label)!] -= kept - swapped[i]
    })
    return diff.reduce((a, d) => a + Math.abs(d), 0)
  }
  const observed = statistic(discordant.map(() => 0))
  const random = seededRandom(hash(discordant.map((p) => `${p.old_label}\0${p.new_label}\0${p.rows}`).join('|')))
  let atLeast = 0
  for (let r = 0; r < PERMUTATIONS; r++) {
    const swapped = discordant.map((p) => halfOf(p.rows, random))
    if (statistic(swapped) >= observed - 1e-9) atLeast += 1
  }
  return (atLeast + 1) / (PERMUTATIONS + 1)
}

/** A draw of Binomial(n, ½): coin by coin for a few rows, by its normal approximation for many. */
function halfOf(n: number, random: () => number): number {
  if (n <= 64) {
    let k = 0
    for (let i = 0; i < n; i++) if (random() < 0.5) k += 1
    return k
  }
  // Box-Muller, rounded and kept within 0..n.
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  return Math.min(n, Math.max(0, Math.round(n / 2 + z * Math.sqrt(n / 4))))
}
