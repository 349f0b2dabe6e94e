import t from 'tap'
import { isRecord, jsonObject, shown, unusable, wholeCount } from '../../src/adapters/engine-answer.ts'
import { EngineError } from '../../src/errors.ts'

t.test('a body that is not a JSON object is an EngineError saying what it is', async (t) => {
  t.same(jsonObject('{"a": 1}'), { a: 1 })
  t.throws(() => jsonObject('<html>'), {
    name: 'EngineError',
    message: 'the engine\'s answer is unusable: the body is not JSON (it starts "<html>")',
  })
  t.throws(() => jsonObject('[1, 2]'), {
    message: "the engine's answer is unusable: the body is [1,2], not a JSON object",
  })
  t.throws(() => jsonObject('null'), { message: /the body is null, not a JSON object$/ })
})

t.test('values are shown as JSON, cut to 60 characters, and a missing one says so', async (t) => {
  t.equal(shown(undefined), 'missing')
  t.equal(shown('x'), '"x"')
  const long = shown('y'.repeat(100))
  t.equal(long.length, 60)
  t.ok(long.endsWith('...'))
})

t.test("only objects are records; unusable makes the adapter's error", async (t) => {
  t.same([{}, [], null, 'a', 1].map(isRecord), [true, false, false, false, false])
  const error = unusable('field "model" is missing')
  t.ok(error instanceof EngineError)
  t.equal(error.message, 'the engine\'s answer is unusable: field "model" is missing')
})

t.test('a count is a whole number from 0; anything else is none', async (t) => {
  t.same([0, 7, -1, 1.5, '3', null, undefined, Number.NaN].map(wholeCount), [0, 7, null, null, null, null, null, null])
})
