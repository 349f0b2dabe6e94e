import t from 'tap'
import type { App } from '../../src/app/app.ts'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { queueTarget, recordVerdict, reviewQueue } from '../../src/app/review.ts'
import { holdCards, holdShown, liveLeases } from '../../src/app/review-leases.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Question, State } from '../../src/core/types.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec(
  'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\nkey: spam.key.csv\n',
)
const KEY = [
  { message: 'WIN now', is_spam: 'no' },
  { message: 'hello', is_spam: 'yes' },
  { message: 'lunch', is_spam: 'yes' },
]
const answer = (_q: Question, s: State) => (/WIN/.test(s.message) ? { yes: 0.9, no: 0.1 } : { yes: 0.2, no: 0.8 })
const target = queueTarget(project(spam), null, 0)
const NOW = new Date('2026-11-22T10:00:00.000Z')

async function answered(): Promise<App> {
  const files = createMemoryFiles({ keys: { '/specs/spam.key.csv': KEY } })
  const a = { ...app(deps(createFakeEngine({ answer }), createMemoryStore()), files), now: () => NOW }
  for (const row of KEY) await judgeRequest(a, { project: project(spam), row: { message: row.message }, cap: 1 })
  return a
}

t.test('holds are taken in order up to the most asked, and read back with their cards', async (t) => {
  const a = await answered()
  const { offered } = await reviewQueue(a, target)
  t.equal(offered.length, 3, 'every key row disagrees')
  const store = a.existingStore(target.project)!
  t.same(holdCards(store, spam, 'ann', offered, 2, NOW, 60), offered.slice(0, 2))
  t.same(holdCards(store, spam, 'bob', offered, 2, NOW, 60), offered.slice(2), 'bob is given what ann does not hold')
  const key = await a.files.key(spam)
  const leases = liveLeases(store, spam, key, NOW)
  t.same(
    leases.map((l) => `${l.reviewer} ${l.card.state.message} ${l.until - NOW.getTime()}`),
    ['ann WIN now 60000', 'ann hello 60000', 'bob lunch 60000'],
  )
  store.holdRows(
    'spam',
    'cal',
    [
      { question: 'is_spam', stateHash: 'x', card: 'not json' },
      { question: 'is_spam', stateHash: 'y', card: '{"stateHash": 1}' },
    ],
    NOW.getTime(),
    NOW.getTime() + 1000,
    2,
  )
  t.equal(liveLeases(store, spam, key, NOW).length, 3, 'a hold whose card cannot be read is left out')
  t.same(
    (await reviewQueue(a, { ...target, viewer: null })).offered,
    [],
    'a view without a name is offered no held row',
  )
  t.same(
    (await reviewQueue(a, { ...target, viewer: 'bob' })).offered.map((c) => c.state.message),
    ['lunch'],
  )
})

t.test(
  "a hold keeps no row values: a card is shown with its row's values as they are now, or not at all",
  async (t) => {
    const a = await answered()
    const store = a.existingStore(target.project)!
    const [first] = (await reviewQueue(a, target)).offered
    await judgeRequest(a, { project: project(spam), row: { message: 'stored only' }, cap: 1 })
    const as = (message: string) => ({ ...first, stateHash: stateHash({ message }), state: { message } })
    const cards = [first, as('stored only'), as('never stored')]
    t.same(holdCards(store, spam, 'ann', cards, 3, NOW, 60), cards)
    const kept = store.heldRows('spam', NOW.getTime()).map((row) => JSON.parse(row.card))
    t.same(
      kept.map((card) => [card.stateHash, 'state' in card]),
      cards.map((card) => [card.stateHash, false]),
      'each held card is kept without its values',
    )
    t.same(
      liveLeases(store, spam, await a.files.key(spam), NOW).map((l) => l.card.state),
      [{ message: 'WIN now' }, { message: 'stored only' }],
      "from the answer key, from the store's values; a row without values anywhere is left out",
    )
  },
)

t.test('a card whose row got a verdict while the page was built is let go, not shown', async (t) => {
  const a = await answered()
  const queue = await reviewQueue(a, { ...target, viewer: 'bob' })
  // ann's verdict lands after bob's queue was read, and releases its row before bob takes it.
  await recordVerdict(a, target, {
    question: 'is_spam',
    stateHash: stateHash({ message: 'WIN now' }),
    kind: 'disagreement',
    verdict: 'key_right',
    reviewer: 'ann',
    reviewedAt: '2026-11-22T10:00:00.000',
  })
  const shown = await holdShown(a, target, 'bob', {
    cards: queue.offered,
    most: 25,
    seconds: 60,
    reviews: queue.reviews,
  })
  t.same(
    shown.map((c) => c.state.message),
    ['hello', 'lunch'],
  )
  t.same(
    liveLeases(a.existingStore(target.project)!, spam, await a.files.key(spam), NOW).map((l) => l.card.state.message),
    ['hello', 'lunch'],
    'and its hold released',
  )
})

t.test('without a store nothing is held, and the cards are shown as offered', async (t) => {
  const bare: App = { ...app(deps(null)), existingStore: () => null }
  const card = (await reviewQueue(await answered(), target)).offered
  t.same(
    await holdShown(bare, target, 'ann', { cards: card, most: 1, seconds: 60, reviews: new Map() }),
    card.slice(0, 1),
  )
})
