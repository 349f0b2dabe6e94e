import t from 'tap'
import { cohenKappa, type Kappa, type LabelPair, type PairStratum } from '../../../src/core/stats/kappa.ts'

/** Pairs that speak for themselves: one stratum of equal weights without a finite population. */
const simpleDesign = (rows: readonly LabelPair[]): PairStratum[] => [{ share: 1, fpc: 1, rows }]

/** A table of pairs: counts[i][j] rows labelled labels[i] by the first side and labels[j] by the second. */
function pairsOf(labels: readonly string[], counts: readonly (readonly number[])[]): LabelPair[] {
  return counts.flatMap((row, i) =>
    row.flatMap((n, j) => Array.from({ length: n }, () => ({ a: labels[i], b: labels[j] }))),
  )
}
const given = (result: ReturnType<typeof cohenKappa>): Kappa => {
  if (!('kappa' in result)) throw new Error(result.reason)
  return result
}
const close = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance

t.test('κ is (p_o − p_e) / (1 − p_e), with the raw agreement beside it', async (t) => {
  const k = given(
    cohenKappa(
      simpleDesign(
        pairsOf(
          ['yes', 'no'],
          [
            [20, 5],
            [10, 15],
          ],
        ),
      ),
    ),
  )
  t.ok(close(k.raw_agreement, 0.7, 1e-12))
  t.ok(close(k.chance_agreement, 0.5, 1e-12), 'shares 0.5 and 0.6 of yes: 0.5 × 0.6 + 0.5 × 0.4')
  t.ok(close(k.kappa, 0.4, 1e-12))
  t.ok(k.interval[0] < 0.4 && 0.4 < k.interval[1])
})

t.test("on many rows its standard error is Fleiss, Cohen and Everitt's", async (t) => {
  const counts = [
    [2000, 500],
    [1000, 1500],
  ]
  const n = 5000
  const k = given(cohenKappa(simpleDesign(pairsOf(['yes', 'no'], counts))))
  const p = counts.map((r) => r.map((c) => c / n))
  const rows = [p[0][0] + p[0][1], p[1][0] + p[1][1]]
  const cols = [p[0][0] + p[1][0], p[0][1] + p[1][1]]
  const kappa = 0.4
  const pe = 0.5
  let sum = 0
  for (let i = 0; i < 2; i++) sum += p[i][i] * (1 - (rows[i] + cols[i]) * (1 - kappa)) ** 2
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) if (i !== j) sum += (1 - kappa) ** 2 * p[i][j] * (cols[i] + rows[j]) ** 2
  const fce = Math.sqrt((sum - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2))
  t.ok(close(k.standard_error, fce, fce * 0.005), `${k.standard_error} against ${fce}`)
  t.ok(close(k.interval[1] - k.interval[0], 2 * 1.959964 * fce, 0.001))
})

t.test('strata weigh by their shares, not by their rows', async (t) => {
  const strata: PairStratum[] = [
    {
      share: 0.8,
      fpc: 1,
      rows: [
        { a: 'yes', b: 'yes' },
        { a: 'no', b: 'no' },
      ],
    },
    {
      share: 0.2,
      fpc: 1,
      rows: [
        { a: 'yes', b: 'no' },
        { a: 'no', b: 'no' },
      ],
    },
  ]
  const k = given(cohenKappa(strata))
  t.ok(close(k.raw_agreement, 0.9, 1e-12))
  t.ok(close(k.chance_agreement, 0.5, 1e-12), 'yes 0.5 against 0.4')
  t.ok(close(k.kappa, 0.8, 1e-12))
})

t.test('rows that all agree still leave room below 1; a census leaves none', async (t) => {
  const agreeing = pairsOf(
    ['yes', 'no'],
    [
      [6, 0],
      [0, 4],
    ],
  )
  const k = given(cohenKappa(simpleDesign(agreeing)))
  t.ok(close(k.kappa, 1, 1e-12))
  t.equal(k.interval[1], 1)
  t.ok(k.interval[0] < 0.8, `ten rows that agree: ${k.interval[0]}`)
  const census = given(
    cohenKappa([
      {
        share: 1,
        fpc: 0,
        rows: pairsOf(
          ['yes', 'no'],
          [
            [6, 1],
            [2, 4],
          ],
        ),
      },
    ]),
  )
  t.same(census.interval, [census.kappa, census.kappa])
})

t.test('no κ without rows, nor when both sides gave one and the same label', async (t) => {
  t.same(cohenKappa([]), { reason: 'no rows', raw_agreement: null })
  const one = cohenKappa(
    simpleDesign(
      pairsOf(
        ['yes', 'no'],
        [
          [9, 0],
          [0, 0],
        ],
      ),
    ),
  )
  t.same(one, { reason: 'both sides gave every row one and the same label, so κ is undefined', raw_agreement: 1 })
  const apart = given(
    cohenKappa(
      simpleDesign(
        pairsOf(
          ['yes', 'no'],
          [
            [0, 5],
            [0, 0],
          ],
        ),
      ),
    ),
  )
  t.equal(apart.kappa, 0, 'one side always yes, the other always no: chance explains it all')
})
