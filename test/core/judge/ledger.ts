import t from 'tap'
import { commitCost } from '../../../src/core/judge/cost.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { CostCapError } from '../../../src/errors.ts'

t.test("each judgment has its own budget under the ledger's cap, kept for the operation", async (t) => {
  const ledger = createLedger(0.01)
  const spam = ledger.budget('spam')
  t.same(spam, { cap: 0.01, committed: 0 })
  commitCost(spam, 'spam', 3, 1, 0.008)
  t.equal(ledger.budget('spam'), spam, 'the same budget on every call')
  t.throws(() => commitCost(ledger.budget('spam'), 'spam', 3, 1, 0.008), CostCapError)
  t.doesNotThrow(
    () => commitCost(ledger.budget('tone'), 'tone', 3, 1, 0.008),
    'another judgment spends from its own cap',
  )
})

t.test('each judgment has its own tally, starting at zero', async (t) => {
  const ledger = createLedger(1)
  t.same(ledger.tally('spam'), { cached: 0, asked: 0, requests: 0, cost: 0, duplicates: 0 })
  ledger.tally('spam').asked += 3
  t.equal(ledger.tally('spam').asked, 3)
  t.equal(ledger.tally('tone').asked, 0)
})
