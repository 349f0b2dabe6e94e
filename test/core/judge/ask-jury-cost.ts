import t from 'tap'
import { judgeSpec } from '../../../src/core/judge/judge-row.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { jurorDeps } from '../../helpers/deps.ts'
import { juryOfThree } from '../../helpers/specs.ts'

// What a jury's judging costs when some of its jurors are simulated: their share is no spend.

const trio = juryOfThree()
const row = { row: { message: 'WIN now' }, where: 'row' }
const engine = (defaultModel: string, spendsNothing: boolean) =>
  Object.assign(createFakeEngine({ defaultModel }), spendsNothing ? { spendsNothing: true } : {})

t.test(
  "a mixed jury's cost is its real jurors' alone; a jury of simulated jurors counts what it would cost",
  async (t) => {
    const real = { own: engine('jev-a', false), openai: engine('gpt-b', false), anthropic: engine('claude-c', false) }
    const allReal = createLedger(1)
    await judgeSpec({ deps: jurorDeps(real), ledger: allReal }, trio, row)
    const mixed = { ...real, own: engine('jev-a', true) }
    const mixedLedger = createLedger(1)
    await judgeSpec({ deps: jurorDeps(mixed), ledger: mixedLedger }, trio, row)
    const full = allReal.tally('trio').cost
    const spent = mixedLedger.tally('trio').cost
    t.ok(spent > 0 && spent < full, `the simulated juror's share is left out (${spent} of ${full})`)
    t.equal(mixedLedger.tally('trio').requests, allReal.tally('trio').requests, 'its requests still count')
    const free = { own: engine('jev-a', true), openai: engine('gpt-b', true), anthropic: engine('claude-c', true) }
    const freeLedger = createLedger(1)
    await judgeSpec({ deps: jurorDeps(free), ledger: freeLedger }, trio, row)
    t.equal(freeLedger.tally('trio').cost, full, 'every juror simulated: what it would have cost, said as simulated')
  },
)
