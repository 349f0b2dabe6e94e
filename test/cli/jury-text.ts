import t from 'tap'
import type { JuryQuestion } from '../../src/app/juror-accuracy.ts'
import type { JuryWeights } from '../../src/core/jury/jury-weights.ts'
import { jurorCost, juryLines, MATRIX_LABELS, versusText, weightLines } from '../../src/cli/jury-text.ts'
import { NO_ROWS, voteWeights } from '../helpers/jury-weights.ts'

const VOTE = voteWeights(['a', 'b'])

t.test(
  "a juror against the jury in a cell: the difference, its interval and McNemar's p; '-' without rows",
  async (t) => {
    t.equal(
      versusText({ difference: -0.3, interval: [-0.567, 0.053], p_value: 0.25 }),
      '-30.0 (95% -56.7 to +5.3), p = 0.250',
    )
    t.equal(versusText(null), '-')
  },
)

t.test('a cost in a cell: in dollars, and said to be simulated for a simulated model', async (t) => {
  t.equal(jurorCost(0.03, ['oa-b']), '$0.03')
  t.equal(jurorCost(0.03, ['simulated-a']), '$0.03 (simulated: nothing spent)')
  t.equal(jurorCost(0.03, ['simulated-a', 'oa-b']), '$0.03', 'not every juror simulated')
  t.equal(jurorCost(0.03, []), '$0.03')
})

t.test('the jury table: nothing for one model, one line without compared rows', async (t) => {
  t.same(juryLines({}), [])
  const empty: JuryQuestion = {
    jury: { model: 'jury:a+b', ...NO_ROWS, cost_usd: 0, weights: VOTE },
    jurors: [{ model: 'a', engine: null, ...NO_ROWS, versus_jury: null, cost_usd: 0 }],
  }
  t.same(juryLines(empty), [
    '    jurors: no reviewed row that the jury and every juror answered yet',
    "    the jury counts votes equally until 12 more reviewed rows with every juror's answer (18 of 30 so far)",
  ])
})

t.test('the jury table: the jury first, then each juror with its engine, its difference and its cost', async (t) => {
  const q: JuryQuestion = {
    jury: {
      model: 'jury:a+b',
      rows: 4,
      correct: 3,
      accuracy: 0.75,
      interval: [0.3, 0.95],
      cost_usd: 0.5,
      weights: VOTE,
    },
    jurors: [
      {
        model: 'a',
        engine: null,
        rows: 4,
        correct: 4,
        accuracy: 1,
        interval: [0.51, 1],
        versus_jury: { difference: 0.25, interval: [-0.2, 0.6], p_value: 1 },
        cost_usd: 0.1,
      },
      {
        model: 'b',
        engine: 'anthropic',
        rows: 4,
        correct: 2,
        accuracy: 0.5,
        interval: [0.15, 0.85],
        versus_jury: { difference: -0.25, interval: [-0.6, 0.2], p_value: 1 },
        cost_usd: 0.4,
      },
    ],
  }
  const lines = juryLines(q)
  t.equal(lines[0], '    what each juror buys, on the 4 reviewed rows the jury and every juror answered:')
  t.match(lines[1], /^ {6}model\s+engine\s+accuracy \(95%\)\s+juror - jury, points\s+cost \(estimated\)$/)
  t.match(lines[2], /^ {6}jury:a\+b\s+75\.0% \(30\.0% to 95\.0%\)\s+\$0\.50?$/)
  t.match(
    lines[3],
    /^ {6}a\s+ENGINE\s+100\.0% \(51\.0% to 100\.0%\)\s+\+25\.0 \(95% -20\.0 to \+60\.0\), p = 1\.000\s+\$0\.10?$/,
  )
  t.match(lines[4], /^ {6}b\s+anthropic\s+50\.0% /)
  t.match(lines[7], /^ {4}the jury counts votes equally until 12 more reviewed rows/)
  t.equal(lines.length, 8)
})

/** A juror's fitted matrix over `labels`: `right` on the diagonal, the rest shared out; each interval ±0.05. */
function juror(model: string, labels: readonly string[], right: number) {
  const rows = (cell: (point: number) => number | [number, number]) =>
    Object.fromEntries(
      labels.map((truth) => [
        truth,
        Object.fromEntries(
          labels.map((said) => [said, cell(said === truth ? right : (1 - right) / (labels.length - 1))]),
        ),
      ]),
    )
  return {
    model,
    accuracy: right,
    confusion: rows((p) => p) as Record<string, Record<string, number>>,
    intervals: rows((p) => [p - 0.05, p + 0.05]) as Record<string, Record<string, [number, number]>>,
  }
}

const weighed = (labels: readonly string[], converged = true): JuryWeights => ({
  kind: 'jury',
  reviewed: 34,
  complete: 31,
  needed: 0,
  converged,
  iterations: converged ? 40 : 5000,
  prior: Object.fromEntries(labels.map((l) => [l, 1 / labels.length])),
  jurors: [juror('a', labels, 0.92), juror('<b>', labels, 0.7)],
})

t.test('the weights of an equal vote: one line, the reviewed rows it still wants', async (t) => {
  t.same(weightLines({ ...VOTE, complete: 29, needed: 1 }), [
    "    the jury counts votes equally until 1 more reviewed row with every juror's answer (29 of 30 so far)",
  ])
})

t.test('the weights of a jury of two labels: a line per juror, how often it says the first label', async (t) => {
  t.same(weightLines(weighed(['yes', 'no'])), [
    '    the jury weighs its jurors by 34 reviewed rows (Dawid and Skene):',
    '      a: fitted accuracy 92.0%; says yes when yes 92% (87% to 97%), when no 8% (3% to 13%)',
    '      <b>: fitted accuracy 70.0%; says yes when yes 70% (65% to 75%), when no 30% (25% to 35%)',
  ])
})

t.test('three labels: a line per label the juror says; more: its accuracy alone', async (t) => {
  const lines = weightLines(weighed(['low', 'medium', 'high']))
  t.equal(lines[1], '      a: fitted accuracy 92.0%')
  t.equal(lines[2], '        says low when low 92% (87% to 97%), when medium 4% (-1% to 9%), when high 4% (-1% to 9%)')
  t.match(lines[4], /^ {8}says high when low 4% .*, when high 92% /)
  t.equal(lines.length, 9)
  const four = weightLines(weighed(['a', 'b', 'c', 'd']))
  t.equal(four[1], '      a: fitted accuracy 92.0% (its matrix: --json)')
  t.equal(four.length, 3)
  t.equal(MATRIX_LABELS, 3)
})

t.test('a fit that did not converge says so', async (t) => {
  t.equal(
    weightLines(weighed(['yes', 'no'], false))[0],
    '    the jury weighs its jurors by 34 reviewed rows (Dawid and Skene); not converged after 5000 iterations: its last estimate is used:',
  )
})
