import t from 'tap'
import { checkStateHash, rowStates, STATE_HASH } from '../../../src/core/forget/row-states.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { UsageError } from '../../../src/errors.ts'
import { project, spec, SPAM_YAML } from '../../helpers/specs.ts'

const spam = spec()
const urgent = spec(
  'name: urgent\nstate: [message, spam.is_spam]\nquestions:\n  urgent:\n    ask: Is it urgent?\n    type: yes_no\n',
  '/specs/urgent.judge.yaml',
)
const sender = spec(
  SPAM_YAML.replace('name: spam', 'name: by_sender').replace('state: [message]', 'state: [sender]'),
  '/specs/by_sender.judge.yaml',
)

t.test('a row gives the state of each judgment whose columns it holds, extra columns ignored', async (t) => {
  const row = { message: 'See you at lunch', id: 7 }
  t.same(rowStates(row, [spam], project(spam)), [stateHash({ message: 'See you at lunch' })])
  t.same(rowStates({ message: 'hi', sender: 'ann' }, [spam, sender], project(spam, sender)), [
    stateHash({ message: 'hi' }),
    stateHash({ sender: 'ann' }),
  ])
  t.same(
    rowStates({ message: 'hi' }, [spam, sender], project(spam, sender)),
    [stateHash({ message: 'hi' })],
    'a judgment whose column is missing is passed over',
  )
})

t.test('values are taken as judging takes them: numbers and null as the state holds them', async (t) => {
  t.same(rowStates({ message: 42 }, [spam], project(spam)), [stateHash({ message: '42' })])
  t.same(rowStates({ message: null }, [spam], project(spam)), [stateHash({ message: '' })])
})

t.test(
  'an upstream label the row does not give takes each label of its question; one it gives is taken as given',
  async (t) => {
    const both = project(spam, urgent)
    const states = rowStates({ message: 'hi' }, [urgent], both)
    t.same(states, [
      stateHash({ message: 'hi', 'spam.is_spam': 'yes' }),
      stateHash({ message: 'hi', 'spam.is_spam': 'no' }),
    ])
    t.same(rowStates({ message: 'hi', 'spam.is_spam': 'no' }, [urgent], both), [
      stateHash({ message: 'hi', 'spam.is_spam': 'no' }),
    ])
    t.same(
      rowStates({ message: 'hi' }, [spam, urgent], both),
      [stateHash({ message: 'hi' }), ...states],
      'one row, the states of both judgments',
    )
  },
)

t.test('an upstream judgment outside the project cannot be expanded, so that judgment gives nothing', async (t) => {
  t.throws(() => rowStates({ message: 'hi' }, [urgent], project(urgent)), UsageError)
})

t.test("a row holding no judgment's columns is a usage error naming the columns wanted", async (t) => {
  t.throws(() => rowStates({ text: 'hi' }, [spam, sender, urgent], project(spam, sender, urgent)), {
    name: 'UsageError',
    message: 'the row holds the state columns of no judgment of /specs: it needs "message", "sender"',
  })
})

t.test('a state hash is 16 lowercase hex digits; anything else is a usage error', async (t) => {
  t.equal(checkStateHash('63439f81dd1d698e'), '63439f81dd1d698e')
  t.match(stateHash({ message: 'x' }), STATE_HASH)
  for (const bad of ['63439F81DD1D698E', '63439f81dd1d698', 'x'.repeat(60)])
    t.throws(() => checkStateHash(bad), UsageError)
  t.throws(() => checkStateHash('nope'), {
    message: 'a state hash is 16 lowercase hex digits (as judge runs and the review page show), not "nope"',
  })
})
