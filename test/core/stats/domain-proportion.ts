import t from 'tap'
import { wilsonInterval } from '../../../src/core/stats/wilson.ts'
import { domainProportion } from '../../../src/core/stats/domain-proportion.ts'
import type { SampleStratum } from '../../../src/core/stats/stratified.ts'

interface LabelPair {
  readonly a: string
  readonly b: string
}
type DesignStratum = SampleStratum<LabelPair>
/** Pairs that speak for themselves: one stratum of equal weights without a finite population. */
const simpleDesign = (rows: readonly LabelPair[]): DesignStratum[] => [{ share: 1, fpc: 1, rows }]

const rows = (n: number, a: string, b: string): LabelPair[] => Array.from({ length: n }, () => ({ a, b }))
const precisionOfYes = { holds: (r: LabelPair) => r.a === 'yes', succeeds: (r: LabelPair) => r.b === 'yes' }

t.test("over one stratum it is the share of successes in the domain, near Wilson's interval", async (t) => {
  const design = simpleDesign([...rows(40, 'yes', 'yes'), ...rows(10, 'yes', 'no'), ...rows(30, 'no', 'no')])
  const p = domainProportion(design, precisionOfYes)!
  t.equal(p.point, 0.8, 'rows the model called no are outside the domain')
  const wilson = wilsonInterval(40, 50)!
  t.ok(
    Math.abs(p.interval[0] - wilson[0]) < 0.02 && Math.abs(p.interval[1] - wilson[1]) < 0.02,
    `${p.interval} against ${wilson}`,
  )
})

t.test("strata weigh by their shares, each stratum's domain by its share of the stratum", async (t) => {
  const strata: DesignStratum[] = [
    { share: 0.8, fpc: 1, rows: [...rows(9, 'yes', 'yes'), ...rows(1, 'no', 'no')] },
    { share: 0.2, fpc: 1, rows: [...rows(2, 'yes', 'yes'), ...rows(3, 'yes', 'no'), ...rows(5, 'no', 'no')] },
  ]
  const p = domainProportion(strata, precisionOfYes)!
  const expected = (0.8 * 0.9 + 0.2 * 0.2) / (0.8 * 0.9 + 0.2 * 0.5)
  t.ok(Math.abs(p.point - expected) < 1e-12, `${p.point} against ${expected}`)
  t.ok(p.interval[0] < p.point && p.point < p.interval[1])
})

t.test('a domain whose rows are all right still leaves room below 1; a census leaves none', async (t) => {
  const p = domainProportion(simpleDesign(rows(8, 'yes', 'yes')), precisionOfYes)!
  t.equal(p.point, 1)
  t.equal(p.interval[1], 1)
  t.ok(p.interval[0] < 0.8, `eight right of eight: ${p.interval[0]}`)
  const census = domainProportion(
    [{ share: 1, fpc: 0, rows: [...rows(3, 'yes', 'yes'), ...rows(1, 'yes', 'no')] }],
    precisionOfYes,
  )!
  t.same(census, { point: 0.75, interval: [0.75, 0.75] })
})

t.test('null when no sampled row is in the domain', async (t) => {
  t.equal(domainProportion(simpleDesign(rows(5, 'no', 'no')), precisionOfYes), null)
  t.equal(domainProportion([], precisionOfYes), null)
})

t.test('a stratum with no row in the domain changes neither the ratio nor its interval', async (t) => {
  const strata: DesignStratum[] = [
    { share: 0.5, fpc: 1, rows: [...rows(6, 'yes', 'yes'), ...rows(2, 'yes', 'no')] },
    { share: 0.5, fpc: 1, rows: rows(8, 'no', 'no') },
  ]
  const p = domainProportion(strata, precisionOfYes)!
  t.equal(p.point, 0.75)
  const alone = domainProportion([strata[0]], precisionOfYes)!
  t.same(p, alone, "its rows' influence on the ratio is 0: they add no variance")
})
