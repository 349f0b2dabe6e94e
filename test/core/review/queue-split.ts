import t from 'tap'
import { buildQueue } from '../../../src/core/review/queue.ts'
import { estimateAccuracy } from '../../../src/core/review/estimate.ts'
import { questionSample, rowsToRead } from '../../../src/core/review/sample-design.ts'
import type { KnownRow } from '../../../src/core/review/stratum-sample.ts'
import { checkVerdict } from '../../../src/core/review/verdict-check.ts'
import type { StoredAnswer } from '../../../src/ports/answer-store.ts'
import { hashOf, input, isSpam, no, qa, topic, answer, yes } from '../../helpers/queue-input.ts'

// A jury's answers some juror dissented from are the split stratum: offered like the unsure rows, after the spot
// checks and before the unsure rows, and weighed by their share in the estimate.

const split = (a: StoredAnswer, dissent = 1): StoredAnswer => ({ ...a, dissent })
const rowsOf = (q: { offered: readonly { question: string; kind: string; stateHash: string }[] }) =>
  q.offered.map((c) => `${c.question}:${c.kind}:${c.stateHash}`)
const row = (question: string, kind: string, message: string) => `${question}:${kind}:${hashOf(message)}`

t.test('split rows come after the spot checks and before the unsure rows, questions in turn', async (t) => {
  const queue = buildQueue(
    input(
      [
        qa(isSpam, {
          sample: [no('s1')],
          split: [split(yes('j2')), split(no('j1', 0.55))],
          unsure: [yes('u1', 0.55)],
        }),
        qa(topic, { split: [split(answer(topic, 't1', { personal: 0.9, service: 0.05, promotion: 0.05 }), 2)] }),
      ],
      { spotChecks: 1 },
    ),
  )
  t.same(rowsOf(queue), [
    row('is_spam', 'spot_check', 's1'),
    row('is_spam', 'split', 'j2'),
    row('topic', 'split', 't1'),
    row('is_spam', 'split', 'j1'),
    row('is_spam', 'unsure', 'u1'),
  ])
  const card = queue.offered.find((c) => c.kind === 'split')!
  t.match(card, { stratum: 'split', rank: 1 }, 'a split card names its stratum and its place in its rank order')
  const record = checkVerdict(queue, {
    question: 'is_spam',
    stateHash: hashOf('j2'),
    kind: 'split',
    verdict: 'confirmed',
    reviewer: 'ann',
    reviewedAt: '2026-01-01T00:00:00.000',
  })
  t.match(record, { kind: 'split', stratum: 'split', rank: 1 }, 'a split row takes the verdicts of an unsure one')
})

t.test('rows asked for by state beyond those read go to the kind of their stratum', async (t) => {
  const base = qa(isSpam, { split: [], unsure: [] })
  const extra = [split(yes('far-split')), yes('far-unsure', 0.55)]
  const queue = buildQueue(
    input([{ ...base, extra }], { spotChecks: 0, states: new Map(extra.map((a) => [a.stateHash, { message: 'x' }])) }),
  )
  t.same(rowsOf(queue), [row('is_spam', 'split', 'far-split'), row('is_spam', 'unsure', 'far-unsure')])
  t.same(
    queue.offered.map((c) => [c.stratum, c.rank]),
    [
      ['split', null],
      ['unsure', null],
    ],
    'with no rank, and the stratum of their answer',
  )
})

t.test(
  'known rows a juror dissented from go to the split stratum, which the estimate weighs by its share',
  async (t) => {
    const known = new Map<string, KnownRow>()
    const add = (a: StoredAnswer, right: boolean) =>
      known.set(a.stateHash, { answer: a, truth: { labels: [right ? a.label : 'other'] }, randomKey: false })
    const splitRows = [split(yes('j1')), split(yes('j2')), split(yes('j3', 0.55)), split(yes('j4'))]
    splitRows.forEach((a, i) => add(a, i % 2 === 0))
    const unsureRows = [yes('u1', 0.55), yes('u2', 0.55)]
    unsureRows.forEach((a) => add(a, true))
    const confidentRows = [no('c1'), no('c2')]
    confidentRows.forEach((a) => add(a, true))
    t.same(rowsToRead(known, 0.2, 1), { split: 6, unsure: 4, confident: 4 }, 'each stratum read past its known rows')
    const sample = questionSample({
      question: isSpam,
      unsureBelow: 0.2,
      strata: {
        split: { size: 100, rows: [...splitRows, yes('j5')] },
        unsure: { size: 200, rows: [...unsureRows, yes('u3', 0.55)] },
        confident: { size: 700, rows: [...confidentRows, no('c3')] },
      },
      known,
    })
    t.match(sample.strata.split, { size: 100, sampled: 4, next: hashOf('j5') })
    t.equal(sample.strata.split.rows.filter((r) => r.correct).length, 2)
    t.equal(sample.strata.unsure.sampled, 2, 'a split row with a small margin is not unsure')
    const e = estimateAccuracy(sample, { accuracy: null, interval: null, counted: 0 })
    t.ok(Math.abs(e.point! - (0.1 * 0.5 + 0.2 * 1 + 0.7 * 1)) < 1e-12, `${e.point}`)
    t.same(
      e.strata.map((s) => s.stratum),
      ['split', 'unsure', 'confident'],
    )
    t.ok(Math.abs(e.strata[0].weight! - 0.1) < 1e-12, 'the split stratum weighs its share of the answers')
  },
)

t.test('without the split stratum read, a queue is what it always was', async (t) => {
  const rows = { sample: [no('s1')], unsure: [yes('u1', 0.55)] }
  const withEmpty = buildQueue(input([qa(isSpam, { ...rows, split: [] })], { spotChecks: 1 }))
  const without = buildQueue(input([qa(isSpam, rows)], { spotChecks: 1 }))
  t.same(rowsOf(withEmpty), rowsOf(without))
  t.same(rowsOf(without), [row('is_spam', 'spot_check', 's1'), row('is_spam', 'unsure', 'u1')])
})
