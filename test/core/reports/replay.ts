import t from 'tap'
import {
  compareQuestion,
  compareReplay,
  liveLabelsOf,
  REPLAY_SAMPLE,
  sumTallies,
  type ReplayRow,
} from '../../../src/core/reports/replay.ts'
import { sharedQuestions } from '../../../src/core/reports/shadow.ts'
import type { StoredAnswer } from '../../../src/ports/answer-store.ts'
import { candidateYaml, spec } from '../../helpers/specs.ts'

const live = spec()
const candidate = spec(candidateYaml(['personal', 'promotion', 'service', 'other']), '/candidates/spam-v2.judge.yaml')
const [isSpam, topic] = sharedQuestions({ live, candidate })

/** A kept row `s<i>` with the given is_spam labels; null leaves the live label out. */
function row(i: number, liveLabel: string | null, candidateLabel: string): ReplayRow {
  return {
    stateHash: `s${i}`,
    state: { message: `message ${i}` },
    live: liveLabel === null ? {} : { is_spam: liveLabel },
    candidate: { is_spam: candidateLabel },
  }
}

// Ten rows by hand: live says yes for 0-3; the candidate says yes for 0-2 and 4-5.
// Agreeing: 0, 1, 2 (yes) and 6-9 (no) = 7. Changing: 3 (yes -> no), 4 and 5 (no -> yes).
// Live mix yes 4/10, no 6/10; candidate mix yes 5/10, no 5/10; TVD = (0.1 + 0.1) / 2 = 0.1.
const TEN = Array.from({ length: 10 }, (_, i) =>
  row(i, i <= 3 ? 'yes' : 'no', i <= 2 || i === 4 || i === 5 ? 'yes' : 'no'),
)

t.test('ten rows of which seven agree give the hand-computed agreement, confusion and distance', async (t) => {
  const q = compareQuestion('spam', isSpam, TEN)
  t.equal(q.rows, 10)
  t.equal(q.agree, 7)
  t.equal(q.agreement, 0.7)
  t.same(q.confusion, { yes: { yes: 3, no: 1 }, no: { yes: 2, no: 4 } })
  t.same(q.live_mix, { yes: 0.4, no: 0.6 })
  t.same(q.candidate_mix, { yes: 0.5, no: 0.5 })
  t.equal(q.distance, 0.1)
  t.equal(q.changed, 3)
  t.same(q.sample.map((r) => r.state_hash).sort(), ['s3', 's4', 's5'])
  t.same(
    q.sample.find((r) => r.state_hash === 's3'),
    { state_hash: 's3', state: { message: 'message 3' }, live: 'yes', candidate: 'no' },
  )
  t.equal(q.live_missing, 0)
})

t.test('a kept row without its live answer is counted as live_missing and left out of agreement', async (t) => {
  const q = compareQuestion('spam', isSpam, [...TEN, row(10, null, 'yes'), row(11, null, 'no')])
  t.equal(q.live_missing, 2)
  t.equal(q.rows, 10)
  t.equal(q.agreement, 0.7)
  t.equal(q.distance, 0.1)
})

t.test('a label only the candidate has gets its own column, and mixes differ by it', async (t) => {
  const rows: ReplayRow[] = [
    { stateHash: 'a', state: {}, live: { topic: 'personal' }, candidate: { topic: 'personal' } },
    { stateHash: 'b', state: {}, live: { topic: 'personal' }, candidate: { topic: 'other' } },
    { stateHash: 'c', state: {}, live: { topic: 'service' }, candidate: { topic: 'service' } },
    { stateHash: 'd', state: {}, live: { topic: 'service' }, candidate: { topic: 'other' } },
  ]
  const q = compareQuestion('spam', topic, rows)
  t.same(q.confusion, {
    personal: { personal: 1, promotion: 0, service: 0, other: 1 },
    promotion: { personal: 0, promotion: 0, service: 0, other: 0 },
    service: { personal: 0, promotion: 0, service: 1, other: 1 },
  })
  t.same(q.live_mix, { personal: 0.5, promotion: 0, service: 0.5 })
  t.same(q.candidate_mix, { personal: 0.25, promotion: 0, service: 0.25, other: 0.5 })
  t.equal(q.distance, 0.5, '(0.25 + 0.25 + 0.5) / 2')
  t.equal(q.agreement, 0.5)
})

t.test('a label outside the spec, from an answer stored under other labels, still counts', async (t) => {
  const q = compareQuestion('spam', isSpam, [row(0, 'maybe', 'yes'), row(1, 'no', 'unsure')])
  t.same(q.confusion, { yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0, unsure: 1 }, maybe: { yes: 1, no: 0 } })
  t.same(q.live_mix, { yes: 0, no: 0.5, maybe: 0.5 })
  t.same(q.candidate_mix, { yes: 0.5, no: 0, unsure: 0.5 })
  t.equal(q.distance, 1)
})

t.test('the sample of changed rows holds at most ten, chosen the same way every time', async (t) => {
  const rows = Array.from({ length: 25 }, (_, i) => row(i, 'yes', 'no'))
  const first = compareQuestion('spam', isSpam, rows)
  t.equal(first.changed, 25)
  t.equal(first.sample.length, REPLAY_SAMPLE)
  t.same(compareQuestion('spam', isSpam, [...rows].reverse()).sample, first.sample, 'independent of row order')
  t.not(
    first.sample.map((r) => r.state_hash).join(),
    rows
      .slice(0, 10)
      .map((r) => r.stateHash)
      .join(),
    'not simply the oldest rows',
  )
})

t.test('no compared rows give null agreement and distance and empty mixes', async (t) => {
  const q = compareQuestion('spam', isSpam, [row(0, null, 'yes')])
  t.match(q, {
    rows: 0,
    agree: 0,
    agreement: null,
    distance: null,
    live_mix: {},
    candidate_mix: {},
    changed: 0,
    sample: [],
    live_missing: 1,
  })
  t.same(compareQuestion('spam', isSpam, []).confusion, { yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0 } })
})

t.test('the report compares shared questions and names those only one side asks', async (t) => {
  const report = compareReplay({ live, candidate }, TEN)
  t.same(Object.keys(report.questions), ['is_spam', 'topic'])
  t.equal(report.questions.is_spam.agreement, 0.7)
  t.equal(report.questions.topic.rows, 0, 'rows without a candidate label for a question are not compared')
  t.same(report.live_only, ['urgency'])
  t.same(report.candidate_only, ['tone'])
})

t.test('live labels come from the stored answers of the live fingerprints', async (t) => {
  const answer = (fingerprint: string, label: string): StoredAnswer => ({
    model: 'm',
    fingerprint,
    stateHash: 's',
    judgment: 'spam',
    question: 'q',
    distribution: {},
    label,
    p: 1,
    margin: 1,
    askedAt: '',
  })
  const [spamQ, , urgencyQ] = live.questions
  const stored = new Map([
    [spamQ.fingerprint, answer(spamQ.fingerprint, 'yes')],
    [urgencyQ.fingerprint, answer(urgencyQ.fingerprint, 'high')],
  ])
  t.same(liveLabelsOf(live, stored), { is_spam: 'yes', urgency: 'high' }, 'topic, edited since, is absent')
})

t.test('totals add up the tallies of every judgment judged', async (t) => {
  t.same(
    sumTallies([
      { cost: 0.25, asked: 3, cached: 6, requests: 1, duplicates: 0 },
      { cost: 0.5, asked: 2, cached: 1, requests: 2, duplicates: 1 },
    ]),
    { cost: 0.75, asked: 5, cached: 7, requests: 3 },
  )
  t.same(sumTallies([]), { cost: 0, asked: 0, cached: 0, requests: 0 })
})
