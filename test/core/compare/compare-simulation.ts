import t from 'tap'
import {
  budget,
  compareQuestion,
  DEFAULT_MARGIN,
  discordantOrder,
  type ComparedRow,
} from '../../../src/core/compare/compare.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'

// The Done-when of `judge compare`: a live and a candidate spec of known accuracy on traffic
// (equal, candidate 3 points better, 3 points worse, few discordant rows, ties, every discordant
// row reviewed), audited AUDITS times: each audit fresh compared rows drawn from the traffic (fresh
// state hashes, so a fresh review order), the budget of discordant reviews the comparison asks for
// reviewed, the real comparison. The interval must cover the traffic's true difference
// δ · (P(win) − P(loss)) in at least 95% of audits (93% in `npm test`, whose 100 audits are
// noisier), equal specs must give "no difference shown" in at least 95%, and the power to say
// better or worse is reported (docs/shadow.md). 1,000 audits in `npm run test:slow`, 100 in `npm test`:
//   JUDGE_SLOW=1 node test/core/compare/compare-simulation.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const AUDITS = SLOW ? 1000 : 100
const MIN_COVERAGE = SLOW ? 0.95 : 0.93
const MIN_SAME = SLOW ? 0.95 : 0.93
const SEED = 20261127

interface Config {
  readonly name: string
  readonly rows: number
  /** Share of rows the two specs label differently. */
  readonly discordant: number
  /** On a discordant row the candidate alone is right with this probability. */
  readonly candidateRight: number
  /** On a discordant row neither is right with this probability (a choice question); else the live spec alone is. */
  readonly neitherRight?: number
  readonly expect: 'better' | 'worse' | 'no difference shown'
}

const CONFIGS: readonly Config[] = [
  { name: 'equal', rows: 20_000, discordant: 0.1, candidateRight: 0.5, expect: 'no difference shown' },
  { name: '+3 points', rows: 20_000, discordant: 0.1, candidateRight: 0.65, expect: 'better' },
  { name: '-3 points', rows: 20_000, discordant: 0.1, candidateRight: 0.35, expect: 'worse' },
  { name: '+3 points, few discordant', rows: 20_000, discordant: 0.05, candidateRight: 0.8, expect: 'better' },
  { name: '+3 points, ties', rows: 20_000, discordant: 0.1, candidateRight: 0.5, neitherRight: 0.3, expect: 'better' },
  {
    name: 'equal, every discordant row reviewed',
    rows: 2_000,
    discordant: 0.1,
    candidateRight: 0.5,
    expect: 'no difference shown',
  },
]

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const HEX_DIGITS = '0123456789abcdef'
/** A fresh state hash: 16 hex digits, one draw each. */
function hex(random: () => number): string {
  let s = ''
  for (let i = 0; i < 16; i++) s += HEX_DIGITS[Math.floor(random() * 16)]
  return s
}
/** A row both specs label alike: one object for all of them (compareQuestion only reads rows). */
const AGREED: ComparedRow = { stateHash: '', live: 'no', candidate: 'no' }

t.comment(
  '| config | rows | discordant | true difference | reviews (budget) | coverage | mean width | better | worse | no difference shown | not enough evidence |',
)
t.comment('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for (const config of CONFIGS) {
  t.test(`${config.name}: ${config.rows} rows, ${pct(config.discordant)} discordant`, async (t) => {
    const random = seededRandom(SEED)
    // The traffic's difference: a discordant row counts +1 when only the candidate is right, -1 when only the live spec is.
    const neither = config.neitherRight ?? 0
    const trueDifference = config.discordant * (config.candidateRight - (1 - config.candidateRight - neither))
    let covered = 0
    let width = 0
    let reviews = 0
    const verdicts = new Map<string, number>()
    for (let i = 0; i < AUDITS; i++) {
      const rows: ComparedRow[] = []
      const truth = new Map<string, readonly string[]>()
      const right = new Map<string, string>()
      for (let r = 0; r < config.rows; r++) {
        if (random() >= config.discordant) {
          rows.push(AGREED)
          continue
        }
        const stateHash = hex(random)
        rows.push({ stateHash, live: 'no', candidate: 'yes' })
        const u = random()
        right.set(stateHash, u < config.candidateRight ? 'yes' : u < config.candidateRight + neither ? 'maybe' : 'no')
      }
      const discordant = right.size
      const budgeted = budget(discordant / config.rows, discordant, DEFAULT_MARGIN)
      reviews += budgeted / AUDITS
      // The reviewer gives the budget's verdicts in the comparison's order.
      const before = compareQuestion({
        judgment: 'spam',
        question: 'is_spam',
        rows,
        truth,
        margin: DEFAULT_MARGIN,
        changes: ['question'],
      })
      if (before.reviews_needed !== budgeted)
        t.fail(`the budget is asked for before any review: ${before.reviews_needed}`)
      for (const row of discordantOrder('spam', 'is_spam', rows).slice(0, budgeted))
        truth.set(row.stateHash, [right.get(row.stateHash)!])
      const result = compareQuestion({
        judgment: 'spam',
        question: 'is_spam',
        rows,
        truth,
        margin: DEFAULT_MARGIN,
        changes: ['question'],
      })
      verdicts.set(result.verdict, (verdicts.get(result.verdict) ?? 0) + 1)
      const [lo, hi] = result.interval!
      if (lo <= trueDifference && trueDifference <= hi) covered += 1
      width += hi - lo
    }
    const share_of = (v: string) => (verdicts.get(v) ?? 0) / AUDITS
    t.comment(
      `| ${config.name} | ${config.rows} | ${pct(config.discordant)} | ${pct(trueDifference)} | ${Math.round(reviews)} | ${pct(covered / AUDITS)} | ${pct(width / AUDITS)} | ${pct(share_of('better'))} | ${pct(share_of('worse'))} | ${pct(share_of('no difference shown'))} | ${pct(share_of('not enough evidence'))} |`,
    )
    t.ok(
      covered / AUDITS >= MIN_COVERAGE,
      `the interval covers the traffic's difference in ${pct(covered / AUDITS)} of audits`,
    )
    if (config.expect === 'no difference shown')
      t.ok(
        share_of('no difference shown') >= MIN_SAME,
        `equal specs: no difference shown in ${pct(share_of('no difference shown'))}`,
      )
    else t.ok(share_of(config.expect) >= 0.8, `${config.expect} in ${pct(share_of(config.expect))} of audits`)
  })
}
