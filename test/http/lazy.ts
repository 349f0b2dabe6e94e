import t from 'tap'
import { onFirstCall } from '../../src/http/lazy.ts'

t.test("the function is loaded on its first call, once, and called with each call's arguments", async (t) => {
  let loads = 0
  const double = onFirstCall(async () => {
    loads++
    return (n: number, label: string) => `${label} ${n * 2}`
  })
  t.equal(loads, 0, 'nothing loaded before a call')
  t.equal(await double(2, 'a'), 'a 4')
  t.equal(await double(5, 'b'), 'b 10')
  t.equal(loads, 1)
})

t.test('calls that arrive while it loads share the one load', async (t) => {
  let loads = 0
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const square = onFirstCall(async () => {
    loads++
    await gate
    return async (n: number) => n * n
  })
  const pending = [square(2), square(3), square(4)]
  release()
  t.same(await Promise.all(pending), [4, 9, 16])
  t.equal(loads, 1)
})

t.test('a load that fails fails its calls, and the next call loads again', async (t) => {
  let loads = 0
  const flaky = onFirstCall(async () => {
    if (++loads === 1) throw new Error('module missing')
    return () => 'loaded'
  })
  await t.rejects(flaky(), /module missing/)
  t.equal(await flaky(), 'loaded')
  t.equal(loads, 2)
})

t.test('what the loaded function throws reaches the caller, and it stays loaded', async (t) => {
  let loads = 0
  const failing = onFirstCall(async () => {
    loads++
    return (): never => {
      throw new RangeError('bad input')
    }
  })
  await t.rejects(failing(), RangeError)
  await t.rejects(failing(), RangeError)
  t.equal(loads, 1)
})
