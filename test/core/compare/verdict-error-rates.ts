import t from 'tap'
import { compareQuestion, discordantOrder, type ComparedRow } from '../../../src/core/compare/compare.ts'
import { lnGamma } from '../../../src/core/stats/ln-gamma.ts'

// How often `judge compare` calls a candidate better or worse, computed exactly: for m reviewed
// discordant rows, every outcome (b wins, c losses, t ties) is given to the real comparison and
// weighted by its probability. With both specs equally accurate the verdict must be `better` at
// most 2.5% of the time and `worse` at most 2.5%, at every m from 1 to 60 and every discordant
// share from 1% to 30%; with a real difference, the power table (docs/shadow.md). Ties (neither
// spec right, or both) are enumerated too, in `npm run test:slow`:
//   JUDGE_SLOW=1 node test/core/compare/verdict-error-rates.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const MAX_M = 60
const SHARES = [0.01, 0.05, 0.1, 0.3]
const pct = (x: number) => `${(100 * x).toFixed(2)}%`

/** ln C(n, k). */
const lnChoose = (n: number, k: number) => lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1)

/** Compared rows: `discordant` of them labelled no by the live spec and yes by the candidate, the rest agreeing. */
function population(rows: number, discordant: number): { rows: ComparedRow[]; order: ComparedRow[] } {
  const all = Array.from({ length: rows }, (_, i) => {
    const stateHash = i.toString(16).padStart(16, '0')
    return i < discordant ? { stateHash, live: 'no', candidate: 'yes' } : { stateHash, live: 'yes', candidate: 'yes' }
  })
  return { rows: all, order: discordantOrder('spam', 'is_spam', all) }
}

/** The verdict when the first m rows of the order are reviewed: `wins` right for the candidate, `ties` for neither, the rest for the live spec. */
function verdictAt(p: { rows: ComparedRow[]; order: ComparedRow[] }, m: number, wins: number, ties = 0): string {
  const truth = new Map(
    p.order.slice(0, m).map((r, i) => [r.stateHash, [i < wins ? 'yes' : i < wins + ties ? 'maybe' : 'no']] as const),
  )
  return compareQuestion({
    judgment: 'spam',
    question: 'is_spam',
    rows: p.rows,
    truth,
    margin: 0.01,
    changes: ['question'],
  }).verdict
}

/** P(better) and P(worse) at m reviews when a discordant row is a win with probability `win` and a tie with `tie`. */
function rates(
  p: { rows: ComparedRow[]; order: ComparedRow[] },
  m: number,
  win: number,
  tie = 0,
): { better: number; worse: number } {
  const out = { better: 0, worse: 0 }
  const loss = 1 - win - tie
  for (let ties = 0; ties <= (tie > 0 ? m : 0); ties++) {
    for (let wins = 0; wins <= m - ties; wins++) {
      const losses = m - ties - wins
      const ln =
        lnChoose(m, ties) +
        lnChoose(m - ties, wins) +
        (wins ? wins * Math.log(win) : 0) +
        (losses ? losses * Math.log(loss) : 0) +
        (ties ? ties * Math.log(tie) : 0)
      const verdict = verdictAt(p, m, wins, ties)
      if (verdict === 'better') out.better += Math.exp(ln)
      if (verdict === 'worse') out.worse += Math.exp(ln)
    }
  }
  return out
}

t.test('equal accuracy: better and worse each at most 2.5% at every reviewed count from 1 to 60', async (t) => {
  t.comment('| discordant share | compared rows | reviewed | most often better (at m) | most often worse (at m) |')
  t.comment('| --- | --- | --- | --- | --- |')
  for (const share of SHARES) {
    const rows = Math.round(100 / share)
    const p = population(rows, 100)
    let [better, worse] = [
      { rate: 0, m: 0 },
      { rate: 0, m: 0 },
    ]
    for (let m = 1; m <= MAX_M; m++) {
      const r = rates(p, m, 0.5)
      if (r.better > better.rate) better = { rate: r.better, m }
      if (r.worse > worse.rate) worse = { rate: r.worse, m }
      t.ok(
        r.better <= 0.025 && r.worse <= 0.025,
        `${pct(share)} discordant, ${m} reviewed: better ${pct(r.better)}, worse ${pct(r.worse)}`,
      )
    }
    t.comment(
      `| ${pct(share)} | ${rows} | 1-${MAX_M} | ${pct(better.rate)} (${better.m}) | ${pct(worse.rate)} (${worse.m}) |`,
    )
  }
  t.equal(verdictAt(population(200, 100), 2, 2), 'not enough evidence', 'two of two won is not better')
})

t.test(
  'equal accuracy with ties: better and worse each at most 2.5%',
  { skip: !SLOW && 'ties are enumerated in npm run test:slow' },
  async (t) => {
    const p = population(1000, 100)
    for (const tie of [0.2, 0.5]) {
      let worst = 0
      for (let m = 1; m <= 40; m++) {
        const r = rates(p, m, (1 - tie) / 2, tie)
        worst = Math.max(worst, r.better, r.worse)
        t.ok(
          r.better <= 0.025 && r.worse <= 0.025,
          `ties ${pct(tie)}, ${m} reviewed: better ${pct(r.better)}, worse ${pct(r.worse)}`,
        )
      }
      t.comment(`ties ${pct(tie)} of discordant rows, 1-40 reviewed: at most ${pct(worst)} a side`)
    }
  },
)

t.test('power: how often a candidate that wins more discordant rows is called better', async (t) => {
  const p = population(2000, 200)
  const wins = [0.55, 0.6, 0.65, 0.75, 0.9]
  const reviewed = SLOW ? [6, 10, 20, 30, 60, 100, 200] : [6, 10, 20, 60]
  t.comment(`| reviewed | ${wins.map((w) => `wins ${pct(w)}`).join(' | ')} |`)
  t.comment(`| --- | ${wins.map(() => '---').join(' | ')} |`)
  let previous = wins.map(() => 0)
  for (const m of reviewed) {
    const power = wins.map((w) => rates(p, m, w).better)
    t.comment(`| ${m} | ${power.map(pct).join(' | ')} |`)
    t.ok(
      power.every((x, i) => i === 0 || x >= power[i - 1]),
      `${m} reviewed: the more wins, the more power`,
    )
    previous = power
  }
  t.ok(previous[wins.length - 1] > 0.99, 'a candidate that wins 90% of discordant rows is found at the largest count')
})
