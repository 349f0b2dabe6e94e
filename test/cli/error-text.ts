import t from 'tap'
import { cliErrorText, roundUp } from '../../src/cli/error-text.ts'
import { CostCapError, NodeNeededError, SpecError } from '../../src/errors.ts'

t.test('the CLI names its --node flag and the setting that raises the cap', async (t) => {
  t.equal(
    cliErrorText(new NodeNeededError('this folder holds 2 judgments (a, b)')),
    'this folder holds 2 judgments (a, b); name one with --node NAME',
  )
  t.equal(
    new NodeNeededError('this folder holds 2 judgments (a, b)').message,
    'this folder holds 2 judgments (a, b); name one with node',
  )
  t.equal(
    cliErrorText(new CostCapError('spam', 3, 1, 0.0123, 0.01)),
    'judgment spam: asking 3 answers in 1 request would cost an estimated $0.0123, above the cap of $0.01; nothing was asked. To allow it, raise the cap above the estimate: JUDGE_MAX_COST=0.02',
  )
  t.equal(cliErrorText(new SpecError('/a.judge.yaml', 'state', 'is wrong')), '/a.judge.yaml: state: is wrong')
})

t.test('the suggested cap is the next round amount above the estimate', async (t) => {
  t.equal(roundUp(0.0123), 0.02)
  t.equal(roundUp(0.02), 0.05)
  t.equal(roundUp(0.3), 0.5)
  t.equal(roundUp(7), 10)
  t.equal(roundUp(0.000015), 0.00002)
  t.equal(roundUp(0), 0.01)
})
