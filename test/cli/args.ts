import t from 'tap'
import { COMMON_OPTIONS, helpText, onePath, parseCommand, positiveInt } from '../../src/cli/args.ts'
import { UsageError } from '../../src/errors.ts'

t.test('options and one path are parsed strictly', async (t) => {
  const { values, positionals } = parseCommand('runs', ['x.judge.yaml', '--json', '--node', 'spam'], COMMON_OPTIONS)
  t.same({ ...values }, { json: true, help: false, node: 'spam' })
  t.equal(onePath('runs', positionals), 'x.judge.yaml')
  t.throws(() => parseCommand('runs', ['--nope'], COMMON_OPTIONS), UsageError)
  t.throws(() => onePath('runs', []), /expected one spec file or folder, got none/)
  t.throws(() => onePath('runs', ['a', 'b']), /got a b/)
})

t.test('whole-number options are checked', async (t) => {
  t.equal(positiveInt('concurrency', undefined, 8), 8)
  t.equal(positiveInt('concurrency', '16', 8), 16)
  t.throws(() => positiveInt('concurrency', '2.5', 8), /--concurrency must be a whole number of 1 or more, not "2.5"/)
})

t.test('help text aligns the options', async (t) => {
  t.equal(
    helpText('judge x', 'Does x.', [
      { flag: '--a', text: 'first' },
      { flag: '--long', text: 'second' },
    ]),
    'usage: judge x\n\nDoes x.\n\noptions:\n  --a     first\n  --long  second\n',
  )
})
