import t from 'tap'
import {
  type Anchor,
  fitJury,
  type JuryFit,
  type JuryInput,
  juryAnswer,
  MAX_ITERATIONS,
  MIN_REVIEWED,
  patternsOf,
  type Said,
} from '../../../src/core/jury/dawid-skene.ts'

/** A row written as one character per juror: a label index, or '-' for no answer. */
const said = (text: string): Said => [...text].map((c) => (c === '-' ? null : Number(c)))

/** Rows of `text` repeated `times`. */
const many = (text: string, times: number): Said[] => Array.from({ length: times }, () => said(text))

const close = (a: readonly number[], b: readonly number[], within = 1e-12) =>
  a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) < within)

/** Two jurors, two labels: a good juror and a poor one, with `reviewed` rows reviewed (all with both answers). */
function twoJurors(reviewed: number): JuryInput {
  const rows = [...many('00', 40), ...many('11', 40), ...many('01', 10), ...many('10', 10)]
  // The first `reviewed` rows of a mix that has the good juror (0) right and the poor one (1) wrong on a third.
  const reviewedRows: Anchor[] = []
  const mix: [string, number][] = [
    ['00', 0],
    ['11', 1],
    ['01', 0],
    ['00', 0],
    ['11', 1],
    ['10', 1],
  ]
  for (let i = 0; i < reviewed; i++) {
    const [text, truth] = mix[i % mix.length]
    reviewedRows.push({ said: said(text), truth })
  }
  return { labels: ['no', 'yes'], jurors: 2, patterns: patternsOf(rows), anchors: reviewedRows }
}

t.test('patternsOf counts rows by what the jurors said, in the order first met', async (t) => {
  t.same(patternsOf([said('01'), said('1-'), said('01')]), [
    { said: [0, 1], count: 2 },
    { said: [1, null], count: 1 },
  ])
  t.same(patternsOf([]), [])
})

t.test('an equal vote before MIN_REVIEWED reviewed rows with every juror, the jury from then on', async (t) => {
  t.equal(MIN_REVIEWED, 30)
  const before = fitJury(twoJurors(MIN_REVIEWED - 1))
  t.equal(before.kind, 'vote')
  t.equal(before.reviewed, 29)
  t.equal(before.confusion, null)
  t.equal(before.intervals, null)
  t.equal(before.accuracy, null)
  t.equal(before.iterations, 0)
  t.equal(before.converged, true)
  const after = fitJury(twoJurors(MIN_REVIEWED))
  t.equal(after.kind, 'jury')
  t.equal(after.complete, 30)
  t.ok(after.converged)
  t.ok(after.iterations > 1)
  // The good juror (said what people said on every reviewed row) is weighed above the poor one.
  t.ok(after.accuracy![0] > after.accuracy![1], `${after.accuracy}`)
  // A reviewed row without every juror's answer does not count toward the threshold, but is reviewed.
  const input = twoJurors(MIN_REVIEWED - 1)
  const partial = fitJury({
    ...input,
    patterns: [...input.patterns, { said: [0, null], count: 1 }],
    anchors: [...input.anchors, { said: [0, null], truth: 0 }],
  })
  t.equal(partial.kind, 'vote')
  t.equal(partial.reviewed, 30)
  t.equal(partial.complete, 29)
})

t.test("the vote's prior is the label mix the vote gives over the rows some juror answered", async (t) => {
  const fit = fitJury({
    labels: ['a', 'b', 'c'],
    jurors: 2,
    patterns: [
      { said: [0, 0], count: 2 },
      { said: [0, 1], count: 2 },
      { said: [null, 2], count: 1 },
      { said: [null, null], count: 5 },
      { said: [1, 1], count: 0 },
    ],
    anchors: [],
  })
  // (2·1 + 2·½) / 5, (2·½) / 5, 1 / 5: the unanswered rows and the empty pattern count for nothing.
  t.ok(close(fit.prior, [3 / 5, 1 / 5, 1 / 5]), `${fit.prior}`)
  t.same(fitJury({ labels: ['a', 'b'], jurors: 1, patterns: [], anchors: [] }).prior, [0.5, 0.5])
})

t.test('juryAnswer for a vote: each present juror counts equally, ties go to the earlier label', async (t) => {
  const fit = fitJury({ labels: ['a', 'b', 'c'], jurors: 3, patterns: [], anchors: [] })
  const twoToOne = juryAnswer(fit, said('001'))
  t.ok(close(twoToOne.distribution, [2 / 3, 1 / 3, 0]))
  t.equal(twoToOne.dissent, 1)
  // A juror without an answer is left out: one vote each for a and b, a tie that a wins by label order.
  const tie = juryAnswer(fit, said('10-'))
  t.same(tie.distribution, [0.5, 0.5, 0])
  t.equal(tie.dissent, 1)
  const split = juryAnswer(fit, said('210'))
  t.equal(split.dissent, 2, 'a three-way tie goes to a, and b and c dissent')
  t.same(juryAnswer(fit, said('222')), { distribution: [0, 0, 1], dissent: 0 })
  // No juror answered: uniform, nobody dissents.
  t.same(juryAnswer(fit, said('---')), { distribution: [1 / 3, 1 / 3, 1 / 3], dissent: 0 })
})

t.test("juryAnswer for a jury: the posterior from the prior and the jurors' matrices", async (t) => {
  const fit = fitJury(twoJurors(MIN_REVIEWED))
  const [c0, c1] = fit.confusion!
  const p = fit.prior
  // The good juror says no, the poor one yes: prior × each juror's chance of saying that, normalised.
  const joint = [p[0] * c0[0][0] * c1[0][1], p[1] * c0[1][0] * c1[1][1]]
  const { distribution, dissent } = juryAnswer(fit, said('01'))
  t.ok(close(distribution, [joint[0] / (joint[0] + joint[1]), joint[1] / (joint[0] + joint[1])]), `${distribution}`)
  t.ok(distribution[0] > 0.5, 'the good juror outweighs the poor one')
  t.equal(dissent, 1)
  // An absent juror is skipped; with none present the answer is the prior.
  const one = juryAnswer(fit, said('0-')).distribution
  const alone = [p[0] * c0[0][0], p[1] * c0[1][0]]
  t.ok(close(one, [alone[0] / (alone[0] + alone[1]), alone[1] / (alone[0] + alone[1])]))
  t.same(juryAnswer(fit, said('--')), { distribution: fit.prior, dissent: 0 })
})

t.test('a jury tie goes to the earlier label, and dissent counts the jurors against it', async (t) => {
  const fit = fitJury(twoJurors(MIN_REVIEWED))
  // A juror whose matrix is flat tells nothing: with an even prior, the jury is at one half each whatever it says.
  const flat: JuryFit = {
    ...fit,
    prior: [0.5, 0.5],
    confusion: [
      [
        [0.5, 0.5],
        [0.5, 0.5],
      ],
      [
        [0.5, 0.5],
        [0.5, 0.5],
      ],
    ],
  }
  const tie = juryAnswer(flat, said('11'))
  t.same(tie.distribution, [0.5, 0.5])
  t.equal(tie.dissent, 2, 'the tie goes to no, against both jurors who said yes')
  t.equal(juryAnswer(flat, said('00')).dissent, 0)
  // Without a tie, dissent counts the present jurors against the jury's top label.
  t.equal(juryAnswer(fit, said('11')).dissent, 0)
  t.equal(juryAnswer(fit, said('1-')).dissent, 0)
})

t.test('many jurors agreeing do not underflow the posterior', async (t) => {
  const J = 400
  const rows: Said[] = [...many('0'.repeat(J), 30), ...many('1'.repeat(J), 30)]
  const anchors: Anchor[] = rows.map((s, i) => ({ said: s, truth: i < 30 ? 0 : 1 }))
  const fit = fitJury({ labels: ['a', 'b'], jurors: J, patterns: patternsOf(rows), anchors })
  const { distribution } = juryAnswer(fit, said('1'.repeat(J)))
  t.ok(distribution.every(Number.isFinite), `${distribution}`)
  t.equal(distribution[1], 1)
})

t.test('a juror missing on every row changes nothing, and one missing on some rows is skipped there', async (t) => {
  const base = twoJurors(MIN_REVIEWED)
  const withGhost: JuryInput = {
    ...base,
    jurors: 3,
    patterns: base.patterns.map((p) => ({ said: [...p.said, null], count: p.count })),
    anchors: base.anchors.map((a) => ({ said: [...a.said, null], truth: a.truth })),
  }
  const a = fitJury(base)
  const b = fitJury(withGhost, { minReviewed: 0 })
  t.ok(close(a.prior, b.prior, 1e-12))
  t.ok(close(a.confusion!.flat(2), b.confusion!.slice(0, 2).flat(2), 1e-12))
  // The juror who never answered keeps the smoothing's flat rows and the widest intervals.
  t.same(b.confusion![2], [
    [0.5, 0.5],
    [0.5, 0.5],
  ])
  t.same(b.intervals![2], [
    [
      [0, 1],
      [0, 1],
    ],
    [
      [0, 1],
      [0, 1],
    ],
  ])
  t.ok(close(juryAnswer(a, said('01')).distribution, juryAnswer(b, said('01-')).distribution))
  // With that juror present on some rows only, its rows without an answer do not count in its matrix.
  const some: JuryInput = {
    labels: ['no', 'yes'],
    jurors: 2,
    patterns: patternsOf([...many('00', 5), ...many('0-', 5), ...many('11', 5)]),
    anchors: [
      ...many('00', 5).map((s) => ({ said: s, truth: 0 })),
      ...many('0-', 5).map((s) => ({ said: s, truth: 0 })),
      ...many('11', 5).map((s) => ({ said: s, truth: 1 })),
    ],
  }
  const fit = fitJury(some, { minReviewed: 0 })
  // Juror 1 said no on the 5 rows of truth no it answered: (5+1)/(5+2), not (5+1)/(10+2).
  t.ok(close(fit.confusion![1][0], [6 / 7, 1 / 7]))
  t.ok(close(fit.confusion![0][0], [11 / 12, 1 / 12]))
})

t.test('a label never seen keeps a small prior and a flat confusion row', async (t) => {
  const rows = [...many('00', 10), ...many('11', 10)]
  const anchors: Anchor[] = rows.map((s, i) => ({ said: s, truth: i < 10 ? 0 : 1 }))
  const fit = fitJury({ labels: ['a', 'b', 'c'], jurors: 2, patterns: patternsOf(rows), anchors }, { minReviewed: 1 })
  t.ok(close(fit.prior, [11 / 23, 11 / 23, 1 / 23]), `${fit.prior}`)
  t.ok(close(fit.confusion![0][2], [1 / 3, 1 / 3, 1 / 3]))
  t.ok(close(fit.confusion![0][0], [11 / 13, 1 / 13, 1 / 13]))
  // No reviewed row of truth c: the interval says nothing.
  t.same(fit.intervals![0][2], [
    [0, 1],
    [0, 1],
    [0, 1],
  ])
  t.ok(juryAnswer(fit, said('22')).distribution[2] > 0, 'a row said c can still be c')
})

t.test('a single label: every probability is 1', async (t) => {
  const fit = fitJury(
    { labels: ['only'], jurors: 2, patterns: [{ said: [0, 0], count: 3 }], anchors: [{ said: [0, 0], truth: 0 }] },
    { minReviewed: 1 },
  )
  t.same(fit.prior, [1])
  t.same(fit.confusion, [[[1]], [[1]]])
  t.same(fit.intervals, [[[[1, 1]]], [[[1, 1]]]])
  t.same(fit.accuracy, [1, 1])
  t.ok(fit.converged)
  t.same(juryAnswer(fit, [0, null]), { distribution: [1], dissent: 0 })
})

t.test('zero reviewed rows: the vote by default, plain unanchored Dawid-Skene when asked', async (t) => {
  const rows = [...many('000', 30), ...many('111', 30), ...many('001', 10), ...many('110', 10)]
  const input: JuryInput = { labels: ['a', 'b'], jurors: 3, patterns: patternsOf(rows), anchors: [] }
  t.equal(fitJury(input).kind, 'vote')
  const fit = fitJury(input, { minReviewed: 0 })
  t.equal(fit.kind, 'jury')
  t.equal(fit.reviewed, 0)
  t.ok(fit.converged)
  t.ok(fit.intervals!.flat(2).every(([low, high]) => low === 0 && high === 1))
  // The two jurors who always agree are read as better than the third.
  t.ok(fit.accuracy![0] > fit.accuracy![2] && fit.accuracy![1] > fit.accuracy![2], `${fit.accuracy}`)
})

t.test('the same pattern given twice counts as one pattern of both counts', async (t) => {
  const input = twoJurors(MIN_REVIEWED)
  const split: JuryInput = {
    ...input,
    patterns: input.patterns.flatMap((p) => [
      { said: p.said, count: p.count / 2 },
      { said: [...p.said], count: p.count / 2 },
    ]),
  }
  const a = fitJury(input)
  const b = fitJury(split)
  t.ok(close(a.prior, b.prior) && close(a.confusion!.flat(2), b.confusion!.flat(2)))
})

t.test('reviewed rows beyond what their pattern counts are counted as rows of their own', async (t) => {
  // More reviewed rows of a pattern than it counts, or of a pattern it lacks: the reviewed rows are the rows.
  const vote = fitJury({
    labels: ['a', 'b'],
    jurors: 2,
    patterns: [{ said: [0, 1], count: 1 }],
    anchors: [
      { said: [0, 1], truth: 1 },
      { said: [0, 1], truth: 0 },
      { said: [1, 1], truth: 1 },
    ],
  })
  // Two rows of [0,1] and one of [1,1]: (2·½) / 3 and (2·½ + 1) / 3.
  t.ok(close(vote.prior, [1 / 3, 2 / 3]), `${vote.prior}`)
  const jury = fitJury(
    {
      labels: ['a', 'b'],
      jurors: 1,
      patterns: [],
      anchors: [
        { said: [0], truth: 0 },
        { said: [1], truth: 1 },
      ],
    },
    { minReviewed: 2 },
  )
  t.ok(close(jury.prior, [0.5, 0.5]))
  t.ok(close(jury.confusion![0][0], [2 / 3, 1 / 3]))
})

t.test('EM stops at its iteration cap unconverged, or as soon as nothing moves by the tolerance', async (t) => {
  t.ok(MAX_ITERATIONS >= 1000)
  const capped = fitJury(twoJurors(MIN_REVIEWED), { maxIterations: 1 })
  t.equal(capped.iterations, 1)
  t.equal(capped.converged, false)
  const loose = fitJury(twoJurors(MIN_REVIEWED), { tolerance: 1 })
  t.equal(loose.iterations, 2)
  t.equal(loose.converged, true)
  const capped3 = fitJury(twoJurors(MIN_REVIEWED), { maxIterations: 3 })
  t.equal(capped3.iterations, 3)
  t.equal(capped3.converged, false)
})

t.test('errors say what is wrong and where', async (t) => {
  const ok: JuryInput = { labels: ['a', 'b'], jurors: 2, patterns: [{ said: [0, 1], count: 1 }], anchors: [] }
  const fits: [Partial<JuryInput>, RegExp][] = [
    [{ labels: [] }, /at least one label/],
    [{ labels: ['a', 'a'] }, /the labels repeat: a, a/],
    [{ jurors: 0 }, /jurors must be a whole number of at least 1, not 0/],
    [{ jurors: 1.5 }, /not 1\.5/],
    [{ patterns: [{ said: [0], count: 1 }] }, /pattern 0 gives 1 jurors' labels, not 2/],
    [{ patterns: [{ said: [0, 2], count: 1 }] }, /pattern 0: juror 1 says 2, not a label index from 0 to 1/],
    [{ patterns: [{ said: [0.5, 1], count: 1 }] }, /juror 0 says 0\.5/],
    [{ patterns: [{ said: [0, 1], count: -1 }] }, /pattern 0 counts -1 rows/],
    [{ patterns: [{ said: [0, 1], count: Number.NaN }] }, /pattern 0 counts NaN rows/],
    [{ anchors: [{ said: [0, -1], truth: 0 }] }, /reviewed row 0: juror 1 says -1/],
    [{ anchors: [{ said: [0, 1], truth: 2 }] }, /reviewed row 0 has truth 2, not a label index from 0 to 1/],
  ]
  for (const [change, message] of fits) t.throws(() => fitJury({ ...ok, ...change }), message, `${message}`)
  // And a row asked of a fit must name each of its jurors.
  const fit: JuryFit = fitJury(ok)
  t.throws(() => juryAnswer(fit, [0]), /juryAnswer: the row gives 1 jurors' labels, not 2/)
  t.throws(() => juryAnswer(fit, [0, 3]), /juryAnswer: the row: juror 1 says 3, not a label index from 0 to 1/)
})
