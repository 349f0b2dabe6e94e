import t from 'tap'
import { costPer1000 } from '../../src/app/compare-cost.ts'
import { estimateStateTokens, tokenCost } from '../../src/core/judge/cost.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { deps, jurorDeps } from '../helpers/deps.ts'
import { juryOfThree, spec } from '../helpers/specs.ts'

const kept = [
  { state: { message: 'WIN a prize' }, stateHash: 'h1' },
  { state: { message: 'see you at lunch' }, stateHash: 'h2' },
]
const fakes = () => ({ own: createFakeEngine(), openai: createFakeEngine(), anthropic: createFakeEngine() })
const perRow = (message: string, questions: number, price: number) =>
  tokenCost(estimateStateTokens({ message }, questions), price)

t.test('one model costs its requests at the configured price', async (t) => {
  const cost = costPer1000({ ...deps(createFakeEngine()), pricePerMtok: 1 }, spec(), kept)
  const questions = spec().questions.length
  t.equal(cost, ((perRow('WIN a prize', questions, 1) + perRow('see you at lunch', questions, 1)) / 2) * 1000)
  t.equal(costPer1000(deps(createFakeEngine()), spec(), []), null, 'no kept rows: not estimable')
  t.equal(costPer1000(deps(createFakeEngine()), spec(), [{ state: {}, stateHash: 'h' }]), null, 'a column missing')
})

t.test("a jury costs each juror's requests at its own engine's price, summed", async (t) => {
  const trio = juryOfThree()
  const cost = costPer1000(jurorDeps(fakes()), trio, kept)
  // jev-a on the configured engine at 0.042, gpt-b on openai at 1, claude-c on anthropic at 2 USD per million tokens.
  const row = (message: string) => [0.042, 1, 2].reduce((n, price) => n + perRow(message, 2, price), 0)
  t.ok(cost !== null && Math.abs(cost - ((row('WIN a prize') + row('see you at lunch')) / 2) * 1000) < 1e-12)
})

t.test("a spec's samples go with its estimate; a chained spec's cost is not estimable", async (t) => {
  const asked: (number | undefined)[] = []
  const engine = {
    ...createFakeEngine(),
    estimate: (r: { samples?: number }) => (asked.push(r.samples), { inputTokens: 1e6, requests: 1 }),
  }
  t.equal(costPer1000({ ...deps(engine), pricePerMtok: 1 }, { ...spec(), samples: 3 }, kept), 1000)
  t.same(asked, [3, 3])
  const chained = spec(
    'name: tone\nstate: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n',
  )
  t.equal(costPer1000(deps(engine), chained, kept), null)
})
