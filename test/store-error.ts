import t from 'tap'
import { JudgeError } from '../src/errors.ts'
import { StoreError } from '../src/store-error.ts'

t.test('a store error is a 503 and exit status 2 naming the file and its trouble, with its cause', async (t) => {
  const cause = new Error('database disk image is malformed')
  const error = new StoreError('/srv/.judge/store.sqlite', 'damaged', '/srv/.judge/store.sqlite is damaged', {
    cause,
    context: { sqlite: 11 },
  })
  t.ok(error instanceof JudgeError)
  t.match(error, {
    name: 'StoreError',
    status: 503,
    exitCode: 2,
    file: '/srv/.judge/store.sqlite',
    trouble: 'damaged',
    cause,
  })
  t.same(error.context, { file: '/srv/.judge/store.sqlite', trouble: 'damaged', sqlite: 11 })
})

t.test('a store error needs no cause nor context', async (t) => {
  const error = new StoreError('s.sqlite', 'read-only', 's.sqlite is read-only')
  t.equal(error.cause, undefined)
  t.same(error.context, { file: 's.sqlite', trouble: 'read-only' })
})
