import t from 'tap'
import type { JuryQuestion } from '../../../src/app/juror-accuracy.ts'
import { escapeHtml } from '../../../src/http/html.ts'
import { JURY_MEANING, jurySection } from '../../../src/http/pages/accuracy-jurors.ts'

const none = { rows: 0, correct: 0, accuracy: null, interval: null } as const
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
  const empty: JuryQuestion = { jury: { model: 'jury:a+b', ...none, cost_usd: 0 }, jurors: [] }
  t.match(jurySection(empty).text, /<h3>What each juror buys<\/h3><p class="muted">No reviewed row that the jury/)
})

t.test(
  'the jury, then a row per juror: engine, accuracy, juror minus jury and cost, with what they mean',
  async (t) => {
    const q: JuryQuestion = {
      jury: { model: 'jury:a+<b>', rows: 4, correct: 3, accuracy: 0.75, interval: [0.3, 0.95], cost_usd: 0.06 },
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
    },
    jurors: [juror('simulated-a', null, 1, 0.25), juror('simulated-b', null, 0.5, -0.25)],
  }
  t.match(jurySection(q).text, 'for an estimated $0.04 (simulated).')
})
