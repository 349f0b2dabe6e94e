import t from 'tap'
import { modelFor, timestamp } from '../../../src/core/judge/deps.ts'
import { spec } from '../../helpers/specs.ts'

t.test("the model is the spec's, else the default", async (t) => {
  t.equal(modelFor(spec(), { defaultModel: 'd' }), 'd')
  t.equal(
    modelFor(spec('model: m1\nstate: [a]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n', '/s/x.judge.yaml'), {
      defaultModel: 'd',
    }),
    'm1',
  )
})

t.test('timestamps are UTC with milliseconds and no zone', async (t) => {
  t.equal(timestamp(new Date('2026-11-22T04:31:07.250Z')), '2026-11-22T04:31:07.250')
  t.equal(timestamp(new Date(Date.UTC(2026, 0, 1))), '2026-01-01T00:00:00.000')
})
