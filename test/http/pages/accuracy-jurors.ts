import t from 'tap'
import type { JuryQuestion } from '../../../src/app/juror-accuracy.ts'
import { escapeHtml } from '../../../src/http/html.ts'
import type { JuryWeights } from '../../../src/core/jury/jury-weights.ts'
import { JURY_MEANING, jurySection, WEIGHTS_MEANING, weightsSection } from '../../../src/http/pages/accuracy-jurors.ts'
import { NO_ROWS, voteWeights } from '../../helpers/jury-weights.ts'

const VOTE = voteWeights(['a'])
const juror = (model: string, engine: string | null, accuracy: number | null, difference: number | null) => ({
  model,
  engine,
  rows: 4,
  correct: 0,
  accuracy,
  interval: accuracy === null ? null : ([accuracy - 0.3, Math.min(1, accuracy + 0.2)] as [number, number]),
  versus_jury:
    difference === null
      ? null
      : { difference, interval: [difference - 0.4, difference + 0.3] as [number, number], p_value: 0.25 },
  cost_usd: 0.02,
})

t.test('nothing for a one-model question; a line without compared rows', async (t) => {
  t.equal(jurySection({}).text, '')
  const empty: JuryQuestion = { jury: { model: 'jury:a+b', ...NO_ROWS, cost_usd: 0, weights: VOTE }, jurors: [] }
  t.match(jurySection(empty).text, /<h3>What each juror buys<\/h3><p class="muted">No reviewed row that the jury/)
})

t.test(
  'the jury, then a row per juror: engine, accuracy, juror minus jury and cost, with what they mean',
  async (t) => {
    const q: JuryQuestion = {
      jury: {
        model: 'jury:a+<b>',
        rows: 4,
        correct: 3,
        accuracy: 0.75,
        interval: [0.3, 0.95],
        cost_usd: 0.06,
        weights: VOTE,
      },
      jurors: [
        juror('a', null, 1, 0.25),
        juror('<b>', 'anthropic', 0.5, -0.25),
        juror('simulated-c', null, null, null),
      ],
    }
    const text = jurySection(q).text
    t.match(text, 'On the 4 reviewed rows the jury and every juror answered: the jury <code>jury:a+&lt;b&gt;</code>')
    t.match(text, 'right on <strong>75.0% (30.0% to 95.0%)</strong>, for an estimated $0.06.')
    t.match(
      text,
      '<tr><td><code>a</code></td><td>ENGINE</td><td class="num">100.0% (70.0% to 100.0%)</td>' +
        '<td class="num">+25.0 (-15.0 to +55.0) points, p = 0.250</td><td class="num">$0.02</td></tr>',
    )
    t.match(text, '<td><code>&lt;b&gt;</code></td><td>anthropic</td><td class="num">50.0% (20.0% to 70.0%)</td>')
    t.match(text, '<td class="num">–</td><td class="num">–</td><td class="num">$0.02 (simulated)</td>')
    t.match(text, escapeHtml(JURY_MEANING))
  },
)

t.test("the jury's cost is said to be simulated when every juror is", async (t) => {
  const q: JuryQuestion = {
    jury: {
      model: 'jury:simulated-a+simulated-b',
      rows: 4,
      correct: 3,
      accuracy: 0.75,
      interval: [0.3, 0.95],
      cost_usd: 0.04,
      weights: VOTE,
    },
    jurors: [juror('simulated-a', null, 1, 0.25), juror('simulated-b', null, 0.5, -0.25)],
  }
  t.match(jurySection(q).text, 'for an estimated $0.04 (simulated).')
})

t.test("the jury's weights while it counts votes: what it still wants, and no table", async (t) => {
  const text = weightsSection(VOTE).text
  t.equal(
    text,
    "<h4>The jury's weights</h4><p>The jury counts its jurors' votes equally until <strong>12 more reviewed " +
      "rows</strong> with every juror's answer (18 of 30 so far); then it weighs each juror by how often people " +
      'agreed with it.</p>',
  )
  const empty = { model: 'jury:a+b', ...NO_ROWS, cost_usd: 0 }
  t.match(jurySection({ jury: { ...empty, weights: VOTE }, jurors: [] }).text, /answered yet\.<\/p><h4>The jury/)
})

t.test("the jury's weights once it weighs: per juror a table of people's label by its label, escaped", async (t) => {
  const w: JuryWeights = {
    ...VOTE,
    kind: 'jury',
    needed: 0,
    iterations: 40,
    prior: { '<y>': 0.25, no: 0.75 },
    jurors: [
      {
        model: '<a>',
        accuracy: 0.9,
        confusion: { '<y>': { '<y>': 0.8, no: 0.2 }, no: { '<y>': 0.1, no: 0.9 } },
        intervals: { '<y>': { '<y>': [0.6, 0.9], no: [0.1, 0.4] }, no: { '<y>': [0.05, 0.2], no: [0.8, 0.95] } },
      },
    ],
  }
  const text = weightsSection(w).text
  t.match(text, "The jury weighs its jurors by 19 reviewed rows (Dawid and Skene's model, 40 iterations).")
  t.match(text, "The labels' fitted shares: &lt;y&gt; 25.0%, no 75.0%.</p>")
  t.match(text, '<p><code>&lt;a&gt;</code>: fitted accuracy <strong>90.0%</strong></p>')
  t.match(
    text,
    `<thead><tr><th>people's label</th><th class="num">says &lt;y&gt;</th><th class="num">says no</th></tr></thead>` +
      '<tbody><tr><th>&lt;y&gt;</th><td class="num">80.0% (60.0% to 90.0%)</td>' +
      '<td class="num">20.0% (10.0% to 40.0%)</td></tr><tr><th>no</th><td class="num">10.0% (5.0% to 20.0%)</td>' +
      '<td class="num">90.0% (80.0% to 95.0%)</td></tr></tbody>',
  )
  t.match(text, escapeHtml(WEIGHTS_MEANING))
  t.notMatch(text, '<y>', 'no label unescaped')
  t.match(
    weightsSection({ ...w, converged: false, iterations: 5000 }).text,
    '5000 iterations; not converged after 5000 iterations, its last estimate used).',
  )
})
