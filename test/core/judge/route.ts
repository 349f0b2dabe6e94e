import t from 'tap'
import { routeOf, ruleHolds } from '../../../src/core/judge/route.ts'
import { spec } from '../../helpers/specs.ts'

const rules = spec().act.is_spam

t.test('the first rule that holds sets the route', async (t) => {
  t.equal(routeOf(rules, { label: 'yes', p: 0.97, margin: 0.94 }), 'block')
  t.equal(routeOf(rules, { label: 'yes', p: 0.6, margin: 0.2 }), 'review')
  t.equal(routeOf(rules, { label: 'no', p: 0.9, margin: 0.8 }), 'deliver')
})

t.test('every condition of a rule must hold', async (t) => {
  t.notOk(ruleHolds(rules[0], { label: 'no', p: 0.99, margin: 0.98 }), 'label fails')
  t.notOk(ruleHolds(rules[0], { label: 'yes', p: 0.9, margin: 0.8 }), 'p fails')
  t.ok(ruleHolds(rules[2], { label: 'no', p: 0.5, margin: 0 }), 'no condition always holds')
})

t.test('no act for a question, or no rule that holds, gives an empty route', async (t) => {
  t.equal(routeOf(undefined, { label: 'yes', p: 1, margin: 1 }), '')
  t.equal(routeOf([rules[0]], { label: 'no', p: 1, margin: 1 }), '')
})
