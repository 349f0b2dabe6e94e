import t from 'tap'
import type { App } from '../../../src/app/app.ts'
import type { ReviewQueue } from '../../../src/app/review.ts'
import type { Lease } from '../../../src/core/review/leases.ts'
import type { Card } from '../../../src/core/review/queue.ts'
import { NO_FILTER } from '../../../src/core/review/queue-view.ts'
import { heldBy, heldByOthers, holdPage } from '../../../src/http/page-data/review-holds.ts'
import { createMemoryLeases } from '../../helpers/memory-store-leases.ts'
import { project, spec } from '../../helpers/specs.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms } from '../../helpers/review-forms.ts'
import { reviewProject } from '../../helpers/review-project.ts'

// 91 rows wait in the review project: a disagreement, 89 spot checks and an unsure row.
const PAGE = '/review?path=spam.judge.yaml'
const TWIN = '/v1/review?path=spam.judge.yaml'

function lease(reviewer: string, stateHash: string, until: number, kind: Card['kind'] = 'unsure'): Lease {
  const card = { question: 'is_spam', stateHash, kind } as Card
  return { question: 'is_spam', stateHash, reviewer, until, card }
}

t.test('holds of others are counted per reviewer, over the rows a filter shows, the first to end first', async (t) => {
  const at = Date.UTC(2026, 2, 1, 10, 0)
  const leases = [
    lease('bob', 'b1', at + 300_000),
    lease('ann', 'a1', at + 60_000),
    lease('bob', 'b2', at + 600_000, 'spot_check'),
    lease('cat', 'c1', at + 60_000),
    lease('me', 'm1', at),
  ]
  t.same(heldByOthers(leases, 'me', NO_FILTER), [
    { reviewer: 'ann', rows: 1, until: '2026-03-01T10:01:00.000' },
    { reviewer: 'cat', rows: 1, until: '2026-03-01T10:01:00.000' },
    { reviewer: 'bob', rows: 2, until: '2026-03-01T10:10:00.000' },
  ])
  t.same(heldByOthers(leases, null, { ...NO_FILTER, kind: 'spot_check' }), [
    { reviewer: 'bob', rows: 1, until: '2026-03-01T10:10:00.000' },
  ])
  t.same(
    [...heldBy(leases)],
    [
      ['bob', 2],
      ['ann', 1],
      ['cat', 1],
      ['me', 1],
    ],
  )
})

t.test('a page holds what it may, fills the rest unheld, and never shows a card another took meanwhile', async (t) => {
  const spam = spec()
  const leases = createMemoryLeases()
  const app = { existingStore: () => leases, now: () => new Date(0), files: { reviews: async () => new Map() } }
  const cards = ['c1', 'c2', 'c3', 'c4'].map(
    (stateHash) => ({ question: 'is_spam', stateHash, kind: 'unsure' }) as Card,
  )
  const row = (card: Card) => ({ question: card.question, stateHash: card.stateHash, card: '{}' })
  leases.holdRows(spam.name, 'zed', [row(cards[1])], 0, 60_000, 1)
  // The queue was read before zed took c2: it offers every card, and knows no hold.
  const queue = { offered: cards.slice(0, 3), reviews: new Map() } as unknown as ReviewQueue
  const page = { target: { project: project(spam), spec: spam, filter: NO_FILTER }, queue, from: 0, seconds: 60 }
  const all = await holdPage(app as unknown as App, 'ann', { ...page, size: 3, waiting: 100 })
  t.same(
    all.cards.map((c) => c.stateHash),
    ['c1', 'c3'],
    'c2 was passed over: not shown',
  )
  t.equal(all.held, 2)
  const bounded = await holdPage(app as unknown as App, 'ann', { ...page, size: 3, waiting: 3 })
  t.same(
    bounded.cards.map((c) => c.stateHash),
    ['c1', 'c2', 'c3'],
    'one held (two of three waiting stay free), the rest shown as read',
  )
  t.equal(bounded.held, 1)
})

t.test("names made up by the dozen cannot empty an honest reviewer's queue", async (t) => {
  const project = await reviewProject(t)
  const server = await startJudgeServer(t, project.dir)
  for (let i = 1; i <= 8; i++) t.equal((await server.get(`${TWIN}&reviewer=mallory${i}`)).status, 200)
  const twin = (await server.get(TWIN)).body
  const held = twin.reviewers.reduce((n: number, r: { held: number }) => n + r.held, 0)
  t.equal(twin.progress.left, 91)
  t.equal(held, 91 - 25, 'every name together holds all but a page of the 91 rows')
  t.ok(
    twin.reviewers.every((r: { held: number }) => r.held <= 25),
    'no name holds more than a page',
  )
  const ann = await server.get(`${PAGE}&reviewer=ann`)
  const cards = new Set(verdictForms(ann.text).map((f) => `${f.fields.question} ${f.fields.state}`))
  t.equal(cards.size, 25, 'ann is shown a whole page')
  t.match(ann.text, /Other reviewers hold 66 of the 91 rows waiting/)
  t.match(ann.text, /the cards here are not held for you/)
  const mine = (await server.get(`${TWIN}&reviewer=ann`)).body
  t.equal(mine.not_held, 'bounded')
  t.equal(mine.cards_held, 0)
  const form = verdictForms(ann.text)[0].fields
  const saved = await fetch(server.url + '/review', {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(form),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(saved.status, 303, "ann's verdict on a card shown to her is accepted")
})

t.test(
  'a row held by another reviewer is reported as held, by whom and until when, never as not waiting',
  async (t) => {
    const project = await reviewProject(t)
    const server = await startJudgeServer(t, project.dir)
    const before = Date.now()
    const ann = (await server.get(`${TWIN}&reviewer=ann&kind=disagreement`)).body
    t.equal(ann.cards.length, 1)
    const row = ann.cards[0].state_hash
    const bob = (await server.get(`${TWIN}&reviewer=bob&kind=disagreement`)).body
    t.equal(bob.cards.length, 0)
    t.equal(bob.held_by_others.length, 1)
    const { reviewer, rows, until } = bob.held_by_others[0]
    t.same({ reviewer, rows }, { reviewer: 'ann', rows: 1 })
    const ends = Date.parse(`${until}Z`)
    t.ok(ends >= before + 599_000 && ends <= Date.now() + 601_000, 'until the hold ends, ten minutes on')
    const hhmm = until.slice(11, 16)
    const kind = await server.get(`${PAGE}&reviewer=bob&kind=disagreement`)
    t.match(kind.text, /<h2>Held by other reviewers<\/h2>/)
    t.match(kind.text, `1 row waits for a verdict here; it is held by other reviewers (ann until ${hhmm} UTC)`)
    t.notMatch(kind.text, /wait for a verdict\. /, 'not "none wait"')
    const one = await server.get(`${PAGE}&reviewer=bob&question=is_spam&row=${row}`)
    t.match(one.text, /<h2>This row is held by another reviewer<\/h2>/)
    t.match(one.text, `waits for a verdict on <code>is_spam</code>; it is held by ann until ${hhmm} UTC`)
    t.notMatch(one.text, /not waiting for a verdict|has a verdict already/)
  },
)
