import t from 'tap'
import { routeCountsOf, tallyRoutes } from '../../../src/core/judge/route-tally.ts'
import type { Answers } from '../../../src/core/types.ts'
import { spec } from '../../helpers/specs.ts'

const answer = (route: string) => ({ label: 'no', p: 0.9, margin: 0.8, route, cached: false, p_source: null })

t.test('each row counts toward the route of every question with act rules, and toward no other question', async (t) => {
  const s = spec()
  const byQuestion = new Map<string, Map<string, number>>()
  for (const route of ['deliver', 'deliver', 'block', 'review', 'deliver']) {
    const answers: Answers = { is_spam: answer(route), topic: answer('') }
    tallyRoutes(byQuestion, s, answers)
  }
  t.same([...byQuestion.keys()], ['is_spam'], 'topic has no act rules')
  t.same(routeCountsOf(s, byQuestion), { is_spam: { block: 1, review: 1, deliver: 3 } })
})

t.test(
  'routes come in the order of the rules, 0 for a route no row took, then rows no rule routed, then routes the spec no longer names',
  async (t) => {
    const s = spec()
    const byQuestion = new Map([
      [
        'is_spam',
        new Map([
          ['legacy', 2],
          ['', 4],
          ['deliver', 7],
        ]),
      ],
    ])
    t.same(Object.entries(routeCountsOf(s, byQuestion).is_spam), [
      ['block', 0],
      ['review', 0],
      ['deliver', 7],
      ['', 4],
      ['legacy', 2],
    ])
    t.same(
      routeCountsOf(s, undefined),
      { is_spam: { block: 0, review: 0, deliver: 0 } },
      'a judgment that judged no row',
    )
    t.same(
      routeCountsOf(spec('name: x\nstate: [m]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n'), byQuestion),
      {},
      'a spec without act counts nothing',
    )
  },
)

t.test("a state's rows counted at once take its route as many times", async (t) => {
  const s = spec()
  const byQuestion = new Map<string, Map<string, number>>()
  tallyRoutes(byQuestion, s, { is_spam: answer('block'), topic: answer('') }, 7)
  tallyRoutes(byQuestion, s, { is_spam: answer('block'), topic: answer('') })
  t.same(routeCountsOf(s, byQuestion), { is_spam: { block: 8, review: 0, deliver: 0 } })
})
