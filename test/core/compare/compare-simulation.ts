import t from 'tap'
import { budget, compareQuestion, DEFAULT_MARGIN, discordantOrder, type ComparedRow } from '../../../src/core/compare/compare.ts'
import { seededRandom } from '../../../src/core/review/seeded-random.ts'

// The Done-when of `judge compare`: a live and a candidate spec of known accuracy on synthetic
// populations (equal, candidate 3 points better, 3 points worse), audited AUDITS times: each audit
// a fresh random review order of the discordant rows (fresh state hashes), the budget of discordant
// reviews the comparison asks for reviewed, the real comparison. The interval must cover the true
// difference in at least 93% of audits, equal specs must give "no difference shown" in at least
// 95%, and the power to say better or worse is reported (docs/shadow.md). 1,000 audits in
// `npm run test:slow`, 150 in `npm test` (asking 91% and 93% there):
//   JUDGE_SLOW=1 node test/core/compare/compare-simulation.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const AUDITS = SLOW ? 1000 : 150
const MIN_COVERAGE = SLOW ? 0.93 : 0.91
const MIN_SAME = SLOW ? 0.95 : 0.93
const SEED = 20261127

interface Config {
  readonly name: string
  readonly rows: number
  /** Share of rows the two specs label differently. */
  readonly discordant: number
  /** On a discordant row exactly one spec is right (yes/no): the candidate with this probability. */
  readonly candidateRight: number
  readonly live: number
  readonly expect: 'better' | 'worse' | 'no difference shown'
}

const CONFIGS: readonly Config[] = [
  { name: 'equal', rows: 20_000, discordant: 0.1, candidateRight: 0.5, live: 0.85, expect: 'no difference shown' },
  { name: '+3 points', rows: 20_000, discordant: 0.1, candidateRight: 0.65, live: 0.85, expect: 'better' },
  { name: '-3 points', rows: 20_000, discordant: 0.1, candidateRight: 0.35, live: 0.85, expect: 'worse' },
  { name: '+3 points, few discordant', rows: 20_000, discordant: 0.05, candidateRight: 0.8, live: 0.85, expect: 'better' },
]

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const hex = (random: () => number) => Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join('')

t.comment('| config | rows | discordant | true difference | reviews (budget) | coverage | mean width | better | worse | no difference shown | not enough evidence |')
t.comment('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for (const config of CONFIGS) {
  t.test(`${config.name}: ${config.rows} rows, ${pct(config.discordant)} discordant`, async (t) => {
    const random = seededRandom(SEED)
    // The population: which rows differ and, where they do, which spec is right; elsewhere both are right as often as the live spec.
    const population = Array.from({ length: config.rows }, () => {
      const differ = random() < config.discordant
      return differ ? { differ, candidateRight: random() < config.candidateRight } : { differ, candidateRight: false }
    })
    const discordant = population.filter((r) => r.differ)
    const trueDifference = discordant.reduce((s, r) => s + (r.candidateRight ? 1 : -1), 0) / config.rows
    const share = discordant.length / config.rows
    const reviews = budget(share, discordant.length, DEFAULT_MARGIN)
    let covered = 0
    let width = 0
    const verdicts = new Map<string, number>()
    for (let i = 0; i < AUDITS; i++) {
      const rows: ComparedRow[] = []
      const truth = new Map<string, readonly string[]>()
      const right = new Map<string, boolean>()
      for (const r of population) {
        if (!r.differ) { rows.push({ stateHash: '', live: 'no', candidate: 'no' }); continue }
        const stateHash = hex(random)
        rows.push({ stateHash, live: 'no', candidate: 'yes' })
        right.set(stateHash, r.candidateRight)
      }
      // The reviewer gives the budget's verdicts in the comparison's order.
      const before = compareQuestion({ judgment: 'spam', question: 'is_spam', rows, truth, margin: DEFAULT_MARGIN })
      if (before.reviews_needed !== reviews) t.fail(`the budget is asked for before any review: ${before.reviews_needed}`)
      for (const row of discordantOrder('spam', 'is_spam', rows).slice(0, reviews)) truth.set(row.stateHash, [right.get(row.stateHash) ? 'yes' : 'no'])
      const result = compareQuestion({ judgment: 'spam', question: 'is_spam', rows, truth, margin: DEFAULT_MARGIN })
      verdicts.set(result.verdict, (verdicts.get(result.verdict) ?? 0) + 1)
      const [lo, hi] = result.interval!
      if (lo <= trueDifference && trueDifference <= hi) covered += 1
      width += hi - lo
    }
    const share_of = (v: string) => (verdicts.get(v) ?? 0) / AUDITS
    t.comment(`| ${config.name} | ${config.rows} | ${pct(share)} | ${pct(trueDifference)} | ${reviews} | ${pct(covered / AUDITS)} | ${pct(width / AUDITS)} | ${pct(share_of('better'))} | ${pct(share_of('worse'))} | ${pct(share_of('no difference shown'))} | ${pct(share_of('not enough evidence'))} |`)
    t.ok(covered / AUDITS >= MIN_COVERAGE, `the interval covers the true difference in ${pct(covered / AUDITS)} of audits`)
    if (config.expect === 'no difference shown') t.ok(share_of('no difference shown') >= MIN_SAME, `equal specs: no difference shown in ${pct(share_of('no difference shown'))}`)
    else t.ok(share_of(config.expect) >= 0.8, `${config.expect} in ${pct(share_of(config.expect))} of audits`)
  })
}
