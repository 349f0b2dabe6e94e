import t from 'tap'
import { JudgeError } from '../../src/errors.ts'
import { PathRequiredError } from '../../src/http/path-required-error.ts'

t.test('a missing path is a 400 naming the field, whose choices are read only when asked', async (t) => {
  let read = 0
  const required = new PathRequiredError('path', () => {
    read += 1
    return ['a.judge.yaml']
  })
  t.match(required, {
    status: 400,
    exitCode: 2,
    name: 'PathRequiredError',
    field: 'path',
    message: 'path is required: a spec file or folder, relative to the served folder',
    context: { field: 'path' },
  })
  t.ok(required instanceof JudgeError)
  t.equal(read, 0)
  t.same(required.choices(), ['a.judge.yaml'])
  t.same(new PathRequiredError('shadow').choices(), [])
})
