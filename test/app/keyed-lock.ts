import t from 'tap'
import { createKeyedLock } from '../../src/app/keyed-lock.ts'

/** A promise and the function that settles it, for work the test finishes by hand. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

t.test('work under one key runs one piece at a time, in the order it came', async (t) => {
  const lock = createKeyedLock()
  const order: string[] = []
  const first = gate()
  const a = lock.run('file', async () => {
    order.push('a starts')
    await first.promise
    order.push('a ends')
    return 'a'
  })
  const b = lock.run('file', async () => {
    order.push('b starts')
    return 'b'
  })
  await new Promise((resolve) => setImmediate(resolve))
  t.same(order, ['a starts'], 'b waits for a')
  first.open()
  t.same(await Promise.all([a, b]), ['a', 'b'])
  t.same(order, ['a starts', 'a ends', 'b starts'])
})

t.test('work under different keys does not wait for each other', async (t) => {
  const lock = createKeyedLock()
  const held = gate()
  const slow = lock.run('one', () => held.promise)
  t.equal(await lock.run('two', async () => 'done'), 'done')
  held.open()
  await slow
})

t.test('a failure rejects its own caller and does not hold up the work behind it', async (t) => {
  const lock = createKeyedLock()
  const failing = lock.run('file', async () => {
    throw new Error('disk full')
  })
  const next = lock.run('file', async () => 'next')
  await t.rejects(failing, /disk full/)
  t.equal(await next, 'next')
  t.equal(await lock.run('file', async () => 'after'), 'after')
})
