import t from 'tap'
import { simulatedDistribution, simulatedTokens } from '../../../src/adapters/simulated/simulated-answers.ts'
import { question } from '../../helpers/engine-contract.ts'

const yesNo = question('is_spam', 'yes_no', ['yes', 'no'], ['It promotes something', null], 'Is this message spam?')
const choice = question(
  'topic',
  'choice',
  ['personal', 'billing', 'delivery'],
  [null, 'Invoices, payments and refunds', 'Parcels and orders'],
)
const scale = question('urgency', 'scale', ['low', 'medium', 'high', 'critical'])

t.test('distributions cover exactly the labels, with two decimals, summing to about 1', async (t) => {
  for (const q of [yesNo, choice, scale]) {
    const d = simulatedDistribution(q, { message: 'Please refund my invoice today!' })
    t.same(Object.keys(d), q.labels)
    for (const p of Object.values(d)) t.equal(Math.round(p * 100) / 100, p)
    t.ok(Math.abs(Object.values(d).reduce((a, b) => a + b, 0) - 1) <= 0.03)
  }
})

t.test('a choice leans to the label whose description the text shares', async (t) => {
  const d = simulatedDistribution(choice, { message: 'Where is my refund for the invoice payment?' })
  t.equal(Object.entries(d).sort((a, b) => b[1] - a[1])[0][0], 'billing')
  const parcel = simulatedDistribution(choice, { message: 'My parcel and my orders have not arrived' })
  t.equal(Object.entries(parcel).sort((a, b) => b[1] - a[1])[0][0], 'delivery')
})

t.test('it matches words, not meaning: a choice the words do not decide leans to its first label', async (t) => {
  const sentiment = question('sentiment', 'choice', ['negative', 'neutral', 'positive'], [null, null, null])
  const d = simulatedDistribution(sentiment, { review: 'Love it, five stars' })
  t.ok(
    d.negative > d.positive && d.negative > d.neutral,
    `"Love it, five stars" reads as negative: ${JSON.stringify(d)}`,
  )
})

t.test('a yes/no question and a scale rise with marked words', async (t) => {
  const calm = { message: 'see you at lunch then' }
  const loud = { message: 'URGENT! Call now to claim your free £900 prize, txt WIN to 80082!' }
  t.ok(simulatedDistribution(yesNo, loud).yes > simulatedDistribution(yesNo, calm).yes)
  const top = (d: Record<string, number>) => Object.entries(d).sort((a, b) => b[1] - a[1])[0][0]
  t.equal(top(simulatedDistribution(scale, calm)), 'low')
  t.match(top(simulatedDistribution(scale, loud)), /high|critical/)
})

t.test('tokens follow the published fit within a few tokens', async (t) => {
  const state = { message: 'x'.repeat(200) }
  const fit = 275 + 0.19 * JSON.stringify(state).length + 21 * 3
  t.ok(Math.abs(simulatedTokens(state, 3) - fit) <= 10)
  t.equal(simulatedTokens(state, 3), simulatedTokens(state, 3), 'stable')
})
