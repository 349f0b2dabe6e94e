import t from 'tap'
import { type Anchor, fitJury, juryAnswer, patternsOf, type Said } from '../../../src/core/jury/dawid-skene.ts'

// fitJury against a plain Dawid-Skene EM written here another way: row by row (not by pattern), with products of
// probabilities (not sums of logarithms), until nothing moves by 1e-15. Same model: the reviewed rows' truth fixed,
// the others started from the vote, one added to every count of the prior and of each confusion row.

interface Reference {
  readonly prior: number[]
  readonly confusion: number[][][]
}

/** The EM over rows: `truths[i]` is row i's reviewed label, or null when it was not reviewed. */
function referenceEm(L: number, J: number, rows: readonly Said[], truths: readonly (number | null)[]): Reference {
  // T[i][t]: how much row i counts toward truth t.
  let T = rows.map((said, i) => {
    const row = new Array<number>(L).fill(0)
    const truth = truths[i]
    if (truth !== null) {
      row[truth] = 1
      return row
    }
    const present = said.filter((s) => s !== null).length
    for (let t = 0; t < L; t++) {
      row[t] = present === 0 ? 1 / L : said.filter((s) => s === t).length / present
    }
    return row
  })
  let previous: Reference | null = null
  for (let iteration = 0; iteration < 100000; iteration++) {
    const prior = new Array<number>(L).fill(0)
    for (let t = 0; t < L; t++) {
      let total = 0
      for (let i = 0; i < rows.length; i++) total += T[i][t]
      prior[t] = (total + 1) / (rows.length + L)
    }
    const confusion: number[][][] = []
    for (let j = 0; j < J; j++) {
      confusion.push([])
      for (let t = 0; t < L; t++) {
        confusion[j].push([])
        let answered = 0
        for (let i = 0; i < rows.length; i++) if (rows[i][j] !== null) answered += T[i][t]
        for (let s = 0; s < L; s++) {
          let saidS = 0
          for (let i = 0; i < rows.length; i++) if (rows[i][j] === s) saidS += T[i][t]
          confusion[j][t].push((saidS + 1) / (answered + L))
        }
      }
    }
    const current = { prior, confusion }
    if (previous !== null && largestMove(previous, current) < 1e-15) return current
    previous = current
    T = rows.map((said, i) => {
      const truth = truths[i]
      if (truth !== null) return T[i]
      const joint = prior.map((p, t) => {
        let product = p
        for (let j = 0; j < J; j++) {
          const s = said[j]
          if (s !== null) product *= confusion[j][t][s]
        }
        return product
      })
      const total = joint.reduce((a, b) => a + b, 0)
      return joint.map((x) => x / total)
    })
  }
  throw new Error('the reference EM did not converge')
}

function largestMove(a: Reference, b: Reference): number {
  const flat = (r: Reference) => [...r.prior, ...r.confusion.flat(2)]
  const x = flat(a)
  const y = flat(b)
  return Math.max(...x.map((v, i) => Math.abs(v - y[i])))
}

/** A row written as one character per juror: a label index, or '-' for no answer. */
const said = (text: string): Said => [...text].map((c) => (c === '-' ? null : Number(c)))

// Three jurors, three labels, 40 rows, 13 of them reviewed (`row:truth`), a juror missing here and there.
const ROWS = [
  '000:0',
  '001',
  '000',
  '011:0',
  '111:1',
  '112',
  '222:2',
  '221',
  '000',
  '100:0',
  '010',
  '0-0',
  '2-2:2',
  '1-1',
  '110:1',
  '202',
  '220:2',
  '000',
  '001:0',
  '111',
  '121:1',
  '210',
  '022',
  '012',
  '102',
  '-00',
  '-11:1',
  '-22',
  '201:2',
  '000',
  '111',
  '222',
  '020',
  '100',
  '211',
  '122:1',
  '012',
  '00-',
  '11-',
  '---',
]
const rows = ROWS.map((r) => said(r.split(':')[0]))
const truths = ROWS.map((r) => (r.includes(':') ? Number(r.split(':')[1]) : null))
const anchors: Anchor[] = rows.flatMap((s, i) => (truths[i] === null ? [] : [{ said: s, truth: truths[i] as number }]))

t.test('fitJury matches a plain row-by-row EM to 1e-9', async (t) => {
  const reference = referenceEm(3, 3, rows, truths)
  const fit = fitJury({ labels: ['a', 'b', 'c'], jurors: 3, patterns: patternsOf(rows), anchors }, { minReviewed: 10 })
  t.equal(fit.kind, 'jury')
  t.equal(fit.converged, true)
  t.equal(fit.reviewed, 13)
  t.equal(fit.complete, 11, 'two reviewed rows lack a juror')
  fit.prior.forEach((p, k) => {
    t.ok(Math.abs(p - reference.prior[k]) < 1e-9, `prior ${k}: ${p} against ${reference.prior[k]}`)
  })
  let compared = 0
  fit.confusion!.forEach((rowsOfJ, j) => {
    rowsOfJ.forEach((row, tr) => {
      row.forEach((p, s) => {
        const want = reference.confusion[j][tr][s]
        if (Math.abs(p - want) >= 1e-9) t.fail(`confusion ${j} ${tr} ${s}: ${p} against ${want}`)
        compared += 1
      })
    })
  })
  t.equal(compared, 27)
  // And the accuracy is the prior-weighted diagonal.
  fit.accuracy!.forEach((a, j) => {
    const want = reference.prior.reduce((sum, p, tr) => sum + p * reference.confusion[j][tr][tr], 0)
    t.ok(Math.abs(a - want) < 1e-9, `accuracy ${j}`)
  })
})

t.test('every row reviewed: the counts plus one, by hand', async (t) => {
  // One juror; truth 0 three times said 0 and once said 1; truth 1 twice said 1. Nothing is latent, so the EM stops
  // at its second iteration: prior (4+1)/(6+2), (2+1)/(6+2); confusion (3+1)/(4+2), (1+1)/(4+2); (0+1)/(2+2), (2+1)/(2+2).
  const rowsHere = [[0], [0], [0], [1], [1], [1]]
  const anchorsHere = rowsHere.map((s, i) => ({ said: s, truth: i < 4 ? 0 : 1 }))
  const fit = fitJury(
    { labels: ['no', 'yes'], jurors: 1, patterns: patternsOf(rowsHere), anchors: anchorsHere },
    { minReviewed: 1 },
  )
  t.same(fit.prior, [5 / 8, 3 / 8])
  t.same(fit.confusion, [
    [
      [2 / 3, 1 / 3],
      [1 / 4, 3 / 4],
    ],
  ])
  t.equal(fit.iterations, 2)
  t.equal(fit.accuracy![0], (5 / 8) * (2 / 3) + (3 / 8) * (3 / 4))
  // Wilson's intervals of 3 of 4 (p 0.75, z² 3.8415: centre 1.2302 / 1.9604 = 0.6275, half 0.9998 × √0.1069 =
  // 0.3269), 1 of 4 (its mirror), 0 of 2 and 2 of 2 (the bound 1 / (1 + z²/2) = 0.3424 and exactly 0 or 1).
  t.same(
    fit.intervals![0].map((row) => row.map(([low, high]) => [round(low), round(high)])),
    [
      [
        [0.3006, 0.9544],
        [0.0456, 0.6994],
      ],
      [
        [0, 0.6576],
        [0.3424, 1],
      ],
    ],
  )
})

t.test('a tiny case with latent rows: fixed values the reference EM gives', async (t) => {
  // Two jurors, two labels; nine rows, three reviewed.
  const rowsHere = ['00:0', '00', '00', '01:1', '01', '11:1', '11', '11', '10'].map((r) => said(r.split(':')[0]))
  const truthsHere = ['00:0', '00', '00', '01:1', '01', '11:1', '11', '11', '10'].map((r) =>
    r.includes(':') ? Number(r.split(':')[1]) : null,
  )
  const anchorsHere = rowsHere.flatMap((s, i) =>
    truthsHere[i] === null ? [] : [{ said: s, truth: truthsHere[i] as number }],
  )
  const fit = fitJury(
    { labels: ['no', 'yes'], jurors: 2, patterns: patternsOf(rowsHere), anchors: anchorsHere },
    { minReviewed: 3 },
  )
  const reference = referenceEm(2, 2, rowsHere, truthsHere)
  t.ok(
    largestMove(reference, { prior: [...fit.prior], confusion: fit.confusion!.map((m) => m.map((r) => [...r])) }) <
      1e-9,
  )
  t.same(fit.prior.map(round12), PRIOR_TINY)
  t.same(
    fit.confusion!.map((m) => m.map((r) => r.map(round12))),
    CONFUSION_TINY,
  )
  // docs/review.md's worked example: the row where the first juror says no and the second yes.
  // 0.418138 × 0.680560 × 0.280272 = 0.079756 against 0.581862 × 0.430944 × 0.733819 = 0.184005.
  const answer = juryAnswer(fit, [0, 1])
  t.same(
    answer.distribution.map((p) => Math.round(p * 1e6) / 1e6),
    [0.302381, 0.697619],
  )
  t.equal(answer.dissent, 1)
  t.same(
    fit.accuracy!.map((a) => Math.round(a * 1e6) / 1e6),
    [0.61568, 0.727927],
  )
})

const round = (x: number) => Math.round(x * 1e4) / 1e4
const round12 = (x: number) => Math.round(x * 1e12) / 1e12
/** What the reference EM gives for the tiny case, rounded to 12 places. */
const PRIOR_TINY = [0.418137776178, 0.581862223822]
const CONFUSION_TINY = [
  [
    [0.680560260181, 0.319439739819],
    [0.430943712531, 0.569056287469],
  ],
  [
    [0.719728094572, 0.280271905428],
    [0.266181404939, 0.733818595061],
  ],
]
