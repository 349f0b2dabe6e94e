import t from 'tap'
import { rankLabels, readDistribution, tidy } from '../../../src/core/judge/answer.ts'
import { spec } from '../../helpers/specs.ts'

const s = spec()
const [isSpam, topic, urgency] = s.questions

t.test('the label is the most probable and the margin is its lead over the second', async (t) => {
  t.same(readDistribution(topic, { personal: 0.2, promotion: 0.7, service: 0.1 }), {
    label: 'promotion',
    p: 0.7,
    margin: 0.5,
  })
  t.same(readDistribution(urgency, { low: 0.05, medium: 0.15, high: 0.8 }), { label: 'high', p: 0.8, margin: 0.65 })
})

t.test('a yes_no margin is |p(yes) - p(no)|', async (t) => {
  t.same(readDistribution(isSpam, { yes: 0.3, no: 0.7 }), { label: 'no', p: 0.7, margin: 0.4 })
  t.same(readDistribution(isSpam, { yes: 1, no: 0 }), { label: 'yes', p: 1, margin: 1 })
})

t.test('ties go to the first label in spec order', async (t) => {
  t.same(readDistribution(topic, { service: 0.4, promotion: 0.4, personal: 0.2 }), {
    label: 'promotion',
    p: 0.4,
    margin: 0,
  })
  t.same(readDistribution(isSpam, { yes: 0.5, no: 0.5 }).label, 'yes')
})

t.test('a label missing from the distribution counts as probability 0', async (t) => {
  t.same(readDistribution(topic, { service: 0.9 }), { label: 'service', p: 0.9, margin: 0.9 })
})

t.test('rankLabels orders labels by probability, ties in spec order', async (t) => {
  t.same(
    rankLabels(topic, { service: 0.4, promotion: 0.4, personal: 0.2 }).map((r) => r.label),
    ['promotion', 'service', 'personal'],
  )
})

t.test('rankLabels keeps the most probable labels asked for, as the whole order begins', async (t) => {
  const tied = { service: 0.4, promotion: 0.4, personal: 0.2 }
  t.same(rankLabels(topic, tied, 2), rankLabels(topic, tied).slice(0, 2))
  t.same(rankLabels(topic, tied, 1), [{ label: 'promotion', p: 0.4 }], 'a tie goes to the first label in spec order')
  t.same(rankLabels(topic, { personal: 0.1 }, 3), [
    { label: 'personal', p: 0.1 },
    { label: 'promotion', p: 0 },
    { label: 'service', p: 0 },
  ])
  t.same(rankLabels(topic, tied, 0), [])
})

t.test('tidy removes floating-point noise', async (t) => {
  t.equal(tidy(0.7 - 0.3), 0.4)
  t.equal(tidy(0.123456789), 0.123456789)
})
