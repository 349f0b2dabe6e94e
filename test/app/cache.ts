import t from 'tap'
import { storeMarkOf, cacheGroups, pruneCache } from '../../src/app/cache.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { run } from '../helpers/contracts/run-store.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec()
const [isSpam, topic] = spam.questions

function answerOf(over: Partial<StoredAnswer>): StoredAnswer {
  return {
    model: 'jev-1',
    fingerprint: isSpam.fingerprint,
    stateHash: 's0',
    judgment: 'spam',
    question: 'is_spam',
    distribution: { yes: 1 },
    label: 'yes',
    p: 1,
    margin: 1,
    askedAt: '2026-01-01T00:00:00.000',
    ...over,
  }
}

function storeOf() {
  const store = createMemoryStore()
  const put = (over: Partial<StoredAnswer>, states = 2) => {
    for (let i = 0; i < states; i++)
      store.putAnswers([answerOf({ ...over, stateHash: `s${i}` })], `s${i}`, { message: `m${i}` })
  }
  put({})
  put({ model: 'jev-0' })
  put({ question: 'topic', fingerprint: topic.fingerprint })
  put({ question: 'topic', fingerprint: 'old-topic' }, 3)
  put({ question: 'topic', fingerprint: 'candidate-topic' })
  put({ question: 'topic', fingerprint: 'elsewhere-topic' })
  put({ question: 'gone', fingerprint: 'gone-fp' })
  put({ judgment: 'ham', question: 'is_ham', fingerprint: 'ham-old' })
  store.recordShadow(
    [],
    [
      {
        judgment: 'spam-v2',
        specHash: 'c',
        question: 'topic',
        fingerprint: 'candidate-topic',
        seenAt: '2026-01-01T00:00:00.000',
      },
    ],
  )
  store.recordRun(run({ run_id: 'h1', judgment: 'other-folder', fingerprints: { topic: 'elsewhere-topic' } }), [])
  return store
}

t.test('answer groups are listed with their status against the judgments named', async (t) => {
  const a = app(deps(null, storeOf()))
  const groups = cacheGroups(a, project(spam), null)
  t.same(
    groups.map((g) => `${g.judgment}.${g.question}`),
    ['ham.is_ham', 'spam.gone', 'spam.is_spam', 'spam.is_spam', 'spam.topic', 'spam.topic', 'spam.topic', 'spam.topic'],
  )
  t.same(groups.find((g) => g.fingerprint === 'old-topic')?.answers, 3)
  const byFp = Object.fromEntries(groups.map((g) => [g.fingerprint + g.model, g.status]))
  t.same(byFp, {
    'ham-oldjev-1': 'other',
    'gone-fpjev-1': 'other',
    [`${isSpam.fingerprint}jev-0`]: 'current',
    [`${isSpam.fingerprint}jev-1`]: 'current',
    [`${topic.fingerprint}jev-1`]: 'current',
    'old-topicjev-1': 'superseded',
    'candidate-topicjev-1': 'candidate',
    'elsewhere-topicjev-1': 'in use',
  })
  t.match(
    groups.find((g) => g.fingerprint === 'old-topic'),
    { oldest: '2026-01-01T00:00:00.000', newest: '2026-01-01T00:00:00.000' },
  )
  t.same(
    cacheGroups({ ...a, existingStore: () => null }, project(spam), null),
    [],
    'no store: nothing, and none is made',
  )
})

t.test('pruning is a dry run unless applied, and deletes only the superseded wordings', async (t) => {
  const store = storeOf()
  const a = app(deps(null, store))
  const dry = pruneCache(a, project(spam), null, false)
  t.match(dry, { dry_run: true, answers: 3, deleted: 0 })
  t.same(
    dry.superseded.map((g) => g.fingerprint),
    ['old-topic'],
  )
  t.equal(store.answerGroups().length, 8, 'a dry run deletes nothing')
  const done = pruneCache(a, project(spam), null, true)
  t.match(done, { dry_run: false, answers: 3, deleted: 3 })
  t.same(
    store
      .answerGroups()
      .map((g) => g.fingerprint)
      .filter((f) => f === 'old-topic'),
    [],
  )
  t.equal(store.answerGroups().length, 7)
  t.match(pruneCache(a, project(spam), null, true), { superseded: [], deleted: 0 }, 'nothing left to prune')
  t.same(store.getStates(['s0', 's2']).size, 2, 'states stay')
})

t.test(
  'the store mark moves with a prune that deletes, not with a dry run; a folder without a store has 0',
  async (t) => {
    const store = storeOf()
    const a = app(deps(null, store))
    const before = storeMarkOf(a, project(spam))
    pruneCache(a, project(spam), null, false)
    t.equal(storeMarkOf(a, project(spam)), before, 'a dry run deletes nothing')
    pruneCache(a, project(spam), null, true)
    const after = storeMarkOf(a, project(spam))
    t.not(after, before)
    pruneCache(a, project(spam), null, true)
    t.equal(storeMarkOf(a, project(spam)), after, 'nothing left to delete: the mark stays')
    t.equal(storeMarkOf({ ...a, existingStore: () => null }, project(spam)), 0)
  },
)
