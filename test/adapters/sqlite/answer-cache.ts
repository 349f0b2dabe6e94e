import t from 'tap'
import { join } from 'node:path'
import { createAnswerCache } from '../../../src/adapters/sqlite/answer-cache.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import type { Store } from '../../../src/ports/store.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { countingStore } from '../../helpers/counting-store.ts'

/** A memory store with the answer cache in front of its lookups, checking the store's write mark. */
function keeping(inner: Store, states: number): Store {
  const cache = createAnswerCache(states, () => inner.writeMark())
  return {
    ...inner,
    getAnswers: cache.getAnswers(inner.getAnswers),
    answerLabels: cache.answerLabels(inner.answerLabels),
  }
}

/** A memory store that counts the lookups that reach it, behind the answer cache. */
function cached(states: number): { store: Store; reads: () => number } {
  const { store, reads } = countingStore()
  return { store: keeping(store, states), reads }
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

t.test('a write by any connection drops what is kept, seen from the next turn with batched reads', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const server = openSqliteStore(file, { batchReads: true, cachedStates: 10 })
  const other = openSqliteStore(file)
  t.teardown(() => (server.close(), other.close()))
  server.putAnswers([answer(), answer({ fingerprint: 'fp-topic', question: 'topic' })], 'state-0', { message: 'hi' })
  const read = server.getAnswers('jev-1', 'state-0', ['fp-spam'])
  t.equal(read.size, 1)
  t.ok(Object.isFrozen(read.get('fp-spam')), 'read, and so kept: the answer given is the frozen one kept')
  t.equal(other.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }), 1)
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 1, 'the same turn reads the same snapshot')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-spam']).size, 0, 'the next turn: the mark moved, gone')
  t.equal(server.getAnswers('jev-1', 'state-0', ['fp-topic']).size, 1, 'what was not deleted is read again')
  server.getAnswers('jev-1', 'state-0', ['fp-topic'])
  t.equal(server.deleteAnswers({ judgment: 'spam', question: 'topic', model: 'jev-1', fingerprint: 'fp-topic' }), 1)
  t.equal(
    server.getAnswers('jev-1', 'state-0', ['fp-topic']).size,
    0,
    'a deletion through this store drops its kept answers at once',
  )
})

t.test('without batched reads, the mark is read at each lookup', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const server = openSqliteStore(file, { cachedStates: 10 })
  const other = openSqliteStore(file)
  t.teardown(() => (server.close(), other.close()))
  server.putAnswers([answer()], 'state-0', { message: 'hi' })
  t.equal(server.answerLabels('jev-1', ['fp-spam'], ['state-0']).get('fp-spam')!.size, 1)
  t.equal(other.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }), 1)
  t.equal(server.answerLabels('jev-1', ['fp-spam'], ['state-0']).get('fp-spam')!.size, 0, 'gone at once')
})

/** A memory store that counts the states whose labels reach it, behind the answer cache. */
function cachedLabels(states: number): { store: Store; reads: () => string[] } {
  const inner = createMemoryStore()
  const reads: string[] = []
  const answerLabels = inner.answerLabels
  inner.answerLabels = (model, fingerprints, hashes) => {
    reads.push(...hashes)
    return answerLabels.call(inner, model, fingerprints, hashes)
  }
  return { store: keeping(inner, states), reads: () => reads }
}

t.test('labels read once are served from memory; a state lacking a label asked for is read again', async (t) => {
  const { store, reads } = cachedLabels(10)
  for (const hash of ['a', 'b'])
    store.putAnswers([answer({ stateHash: hash, label: hash === 'a' ? 'yes' : 'no' })], hash, {})
  const labels = (fps: string[], hashes: string[]) =>
    Object.fromEntries([...store.answerLabels('jev-1', fps, hashes)].map(([fp, m]) => [fp, Object.fromEntries(m)]))
  t.same(labels(['fp-spam'], ['a', 'b', 'c']), { 'fp-spam': { a: 'yes', b: 'no' } })
  t.same(reads(), ['a', 'b', 'c'])
  t.same(labels(['fp-spam'], ['b', 'a']), { 'fp-spam': { b: 'no', a: 'yes' } })
  t.same(reads(), ['a', 'b', 'c'], 'from memory')
  store.putAnswers([answer({ stateHash: 'c', label: 'yes' })], 'c', {})
  store.putAnswers(
    [answer({ stateHash: 'a', fingerprint: 'fp-topic', question: 'topic', label: 'promotion' })],
    'a',
    {},
  )
  t.same(
    labels(['fp-spam', 'fp-topic'], ['a', 'c']),
    { 'fp-spam': { a: 'yes', c: 'yes' }, 'fp-topic': { a: 'promotion' } },
    'answers stored later are found',
  )
  t.same(reads().slice(3), ['a', 'c'])
  t.same(labels(['fp-spam'], ['a', 'c']), { 'fp-spam': { a: 'yes', c: 'yes' } })
  t.same(reads().slice(3), ['a', 'c'], 'both now from memory')
  t.same(labels(['fp-spam'], ['a']), labels(['fp-spam'], ['a']))
  t.equal(store.answerLabels('jev-2', ['fp-spam'], ['a']).get('fp-spam')!.size, 0, 'another model is another key')
})

t.test(
  'labels: more states in one read than the bound still all come back; a deletion drops what is held',
  async (t) => {
    const { store, reads } = cachedLabels(2)
    for (const hash of ['a', 'b', 'c']) store.putAnswers([answer({ stateHash: hash })], hash, {})
    t.equal(store.answerLabels('jev-1', ['fp-spam'], ['a', 'b', 'c']).get('fp-spam')!.size, 3)
    store.answerLabels('jev-1', ['fp-spam'], ['b', 'c'])
    t.equal(reads().length, 3, 'the last two are held')
    store.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' })
    t.equal(store.answerLabels('jev-1', ['fp-spam'], ['b', 'c']).get('fp-spam')!.size, 0)
    t.equal(reads().length, 5, 'read again after the deletion')
  },
)

t.test('past a larger bound, an eighth of the states, those read longest ago, make room at once', async (t) => {
  const { store, reads } = cached(16)
  const hashes = Array.from({ length: 17 }, (_, i) => `s${i}`)
  for (const hash of hashes) store.putAnswers([answer({ stateHash: hash })], hash, {})
  for (const hash of hashes) store.getAnswers('jev-1', hash, ['fp-spam'])
  t.equal(reads(), 17)
  store.getAnswers('jev-1', 's2', ['fp-spam'])
  t.equal(reads(), 17, 's2 is still held')
  store.getAnswers('jev-1', 's1', ['fp-spam'])
  store.getAnswers('jev-1', 's0', ['fp-spam'])
  t.equal(reads(), 19, 's0 and s1 went to make room for s16')
})
