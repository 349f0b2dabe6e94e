import t from 'tap'
import { join } from 'node:path'
import { cacheAnswers } from '../../../src/adapters/sqlite/answer-cache.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import type { Store } from '../../../src/ports/store.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'

/** A memory store that counts the lookups that reach it, behind the answer cache. */
function cached(states: number): { store: Store; reads: () => number } {
  const inner = createMemoryStore()
  let reads = 0
  const getAnswers = inner.getAnswers
  inner.getAnswers = (...args) => {
    reads++
    return getAnswers.apply(inner, args)
  }
  return { store: cacheAnswers(inner, states), reads: () => reads }
}

t.test('answers read once are served from memory, frozen, for any subset of what was read', async (t) => {
  const { store, reads } = cached(10)
  store.putAnswers([answer(), answer({ fingerprint: 'fp-topic', question: 'topic' })], 'state-0', { message: 'hi' })
  const first = store.getAnswers('jev-1', 'state-0', ['fp-spam', 'fp-topic'])
  t.equal(reads(), 1)
  const again = store.getAnswers('jev-1', 'state-0', ['fp-topic', 'fp-spam'])
  t.equal(reads(), 1, 'the second lookup does not reach the store')
  t.same([...again.keys()], ['fp-topic', 'fp-spam'], 'in the order asked')
  t.equal(again.get('fp-spam'), first.get('fp-spam'), 'the same answer object')
  t.ok(Object.isFrozen(first.get('fp-spam')) && Object.isFrozen(first.get('fp-spam')!.distribution))
  t.not(again, first, 'each lookup gets a map of its own')
  store.getAnswers('jev-1', 'state-0', ['fp-spam'])
  t.equal(reads(), 1)
})

t.test('what the store lacks is not remembered: an answer stored later is found', async (t) => {
  const { store, reads } = cached(10)
  t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 0)
  store.putAnswers([answer()], 'state-0', { message: 'hi' })
  t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 1)
  store.putAnswers([answer({ fingerprint: 'fp-topic', question: 'topic' })], 'state-0', { message: 'hi' })
  const both = store.getAnswers('jev-1', 'state-0', ['fp-spam', 'fp-topic'])
  t.same([...both.keys()], ['fp-spam', 'fp-topic'], 'a question missing from memory sends the lookup to the store')
  t.equal(reads(), 3)
  t.equal(store.getAnswers('jev-2', 'state-0', ['fp-spam']).size, 0, 'another model is another key')
})

t.test('beyond its bound, the state read longest ago is dropped', async (t) => {
  const { store, reads } = cached(2)
  for (const hash of ['a', 'b', 'c']) store.putAnswers([answer({ stateHash: hash })], hash, {})
  for (const hash of ['a', 'b', 'a', 'c']) store.getAnswers('jev-1', hash, ['fp-spam'])
  t.equal(reads(), 3, 'a, b, then c; a again came from memory')
  store.getAnswers('jev-1', 'c', ['fp-spam'])
  store.getAnswers('jev-1', 'a', ['fp-spam'])
  t.equal(reads(), 4, 'c is kept, a was dropped for it')
})

t.test('answers deleted by another connection are dropped once the epoch is read; deleted here, at once', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const server = openSqliteStore(file, { batchReads: true, cachedStates: 10 })
  const other = openSqliteStore(file)
  t.teardown(() => (server.close(), other.close()))
  server.putAnswers([answer(), answer({ fingerprint: 'fp-topic', question: 'topic' })], 'state-0', { message: 'hi' })
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 1, 'read, and so kept')
  const epoch = server.answersEpoch()
  t.equal(other.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }), 1)
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 1, 'kept until the epoch is read')
  t.not(server.answersEpoch(), epoch, 'the other connection moved it')
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 0, 'then gone')
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-topic']).size, 1, 'what was not deleted is read again')
  server.getAnswers('jev-1', 'state-0', ['fp-topic'])
  t.equal(server.deleteAnswers({ judgment: 'spam', question: 'topic', model: 'jev-1', fingerprint: 'fp-topic' }), 1)
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-topic']).size, 0, 'a deletion through this store drops its kept answers at once')
})
