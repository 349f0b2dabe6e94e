import t from 'tap'
import {
  commitCost,
  createBudget,
  estimateStateTokens,
  estimateTokens,
  tokenCost,
} from '../../../src/core/judge/cost.ts'
import { CostCapError } from '../../../src/errors.ts'

t.test('the token estimate follows the published fit', async (t) => {
  t.equal(estimateTokens(100, 3), 275 + 19 + 63)
  t.equal(estimateStateTokens({ message: 'hi' }, 1), 275 + 0.19 * JSON.stringify({ message: 'hi' }).length + 21)
})

t.test('cost is tokens times the price per million', async (t) => {
  t.equal(tokenCost(1_000_000, 0.042), 0.042)
  t.equal(tokenCost(0, 0.042), 0)
})

t.test('a budget commits estimates up to its cap and refuses beyond it', async (t) => {
  const budget = createBudget(0.01)
  commitCost(budget, 'spam', 3, 1, 0.006)
  t.equal(budget.committed, 0.006)
  const error = t.throws(() => commitCost(budget, 'spam', 3, 1, 0.006)) as CostCapError
  t.ok(error instanceof CostCapError)
  t.match(
    error.message,
    /judgment spam: asking 3 answers in 1 request would cost an estimated \$0\.012, above the cap of \$0\.01; nothing was asked/,
  )
  t.equal(budget.committed, 0.006, 'a refused estimate commits nothing')
})

t.test('a zero cap refuses any asking', async (t) => {
  t.throws(() => commitCost(createBudget(0), 'spam', 1, 1, 1e-6), CostCapError)
})
