import t from 'tap'
import { setTimeout as delay } from 'node:timers/promises'
import { currentRequest, withinRequest } from '../../../src/http/ops/request-scope.ts'

t.test("a request's scope follows its work across awaits and timers, and is gone outside it", async (t) => {
  const first = { engineIds: [] as string[] }
  const second = { engineIds: [] as string[] }
  const work = async (id: string) => {
    await delay(5)
    currentRequest()?.engineIds.push(id)
  }
  await Promise.all([withinRequest(first, () => work('a')), withinRequest(second, () => work('b'))])
  await work('outside')
  t.same(first.engineIds, ['a'])
  t.same(second.engineIds, ['b'])
  t.equal(currentRequest(), undefined)
})
