import t from 'tap'
import { emptyQueue } from '../../../src/http/pages/review-header.ts'
import { heldQueue, holdNote, holders } from '../../../src/http/pages/review-holds.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

const ANN = { reviewer: 'ann', rows: 120, until: '2026-03-01T10:42:00.000' }
const BOB = { reviewer: 'bob', rows: 65, until: '2026-03-01T10:45:30.000' }
const LEFT = { disagreement: 0, spot_check: 85, split: 0, unsure: 100 }
const BY_QUESTION = {
  is_spam: LEFT,
  topic: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
  urgency: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
}

const NONE = { disagreement: 0, spot_check: 0, split: 0, unsure: 0 }
const NONE_LISTED = { is_spam: NONE, topic: NONE, urgency: NONE }

t.test('who holds rows and until when, in UTC', async (t) => {
  t.equal(holders([ANN, BOB]), 'ann until 10:42 UTC, bob until 10:45 UTC')
})

t.test('an empty page whose rows are held by others says how many wait, by whom and until when', async (t) => {
  const held = (more: Parameters<typeof reviewPageData>[0]) =>
    emptyQueue(
      reviewPageData({
        cards: [],
        left: LEFT,
        left_by_question: BY_QUESTION,
        // Rows held by others are not listed: the page counts them apart.
        listed_by_question: NONE_LISTED,
        progress: { reviewer: 'cat', day: '2026-03-01', reviewed: 0, all_time: 0, held: 0, left: 185 },
        ...more,
      }),
      null,
    ).text
  const all = held({ held_by_others: [ANN, BOB] })
  t.match(all, '<h2>Held by other reviewers</h2>')
  t.match(all, '185 rows wait for a verdict here; all are held by other reviewers (ann until 10:42 UTC, bob until')
  t.notMatch(all, /has a verdict|Nothing to review/)
  const some = held({
    held_by_others: [BOB],
    listed_by_question: { ...NONE_LISTED, is_spam: { disagreement: 0, spot_check: 20, split: 0, unsure: 100 } },
  })
  t.match(some, '185 rows wait for a verdict here; 65 of them are held by other reviewers (bob until 10:45 UTC)')
  const one = held({
    filter: { kind: 'spot_check', question: 'is_spam', row: null },
    held_by_others: [{ ...ANN, rows: 1 }],
  })
  t.match(one, '1 row waits for a verdict here; it is held by other reviewers (ann until 10:42 UTC)')
  const row = held({ filter: { kind: null, question: null, row: '0123456789abcdef' }, held_by_others: [ANN] })
  t.match(row, '<h2>This row is held by another reviewer</h2>')
  t.match(row, 'Row <code>0123456789abcdef</code> waits for a verdict; it is held by ann until 10:42 UTC.')
  t.match(
    held({ reviewer: null, held_by_others: [ANN] }),
    '<a href="/review?path=sms%2Fspam.judge.yaml&amp;node=spam">',
  )
  t.equal(heldQueue(reviewPageData({ cards: [] }), null, 3), null, 'nothing held: the page says why as before')
})

t.test('a page whose cards are not all held says why, and how to hold them', async (t) => {
  const note = (more: Parameters<typeof reviewPageData>[0]) => holdNote(reviewPageData(more), 'tok').text
  t.equal(note({}), '', 'every card held')
  t.equal(note({ cards_held: 0, not_held: 'unnamed' }), '', 'no name: the form asking it says so')
  t.equal(note({ cards: [], cards_held: 0, not_held: 'other_site' }), '', 'no card')
  const elsewhere = note({
    cards_held: 0,
    not_held: 'other_site',
    page: { number: 2, pages: 2, size: 25, total: 30, first: 26 },
  })
  t.match(elsewhere, 'Opened from another site: these cards are not held for you')
  t.match(
    elsewhere,
    /href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;reviewer=ann&amp;audit=5&amp;page=2&amp;token=tok"/,
  )
  const api = note({ reviewer: null, cards_held: 0, not_held: 'other_site' })
  t.match(
    api,
    /href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;audit=5&amp;token=tok"/,
    'no name to carry',
  )
  const others = [
    { reviewer: 'ann', today: 0, all_time: 0, held: 0 },
    { reviewer: 'bob', today: 0, all_time: 0, held: 160 },
  ]
  const bounded = { not_held: 'bounded' as const, reviewers: others }
  t.match(note({ ...bounded, cards_held: 0 }), 'Other reviewers hold 160 of the 3 rows waiting')
  t.match(note({ ...bounded, cards_held: 0 }), 'the cards here are not held for you')
  t.match(note({ ...bounded, cards_held: 2 }), 'the last card here is not held for you')
  t.match(note({ ...bounded, cards_held: 1 }), 'the last 2 cards are not held for you')
})
