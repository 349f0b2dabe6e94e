import t from 'tap'
import { buildQueue } from '../../../src/core/review/queue.ts'
import { checkVerdict } from '../../../src/core/review/verdict-check.ts'
import type { VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { hashOf, input, isSpam, keyOf, no, qa, verdictOn } from '../../helpers/queue-input.ts'

function reviewQueue(verdicts = new Map<string, VerdictRecord>()) {
  const key = keyOf([['k1', { is_spam: 'yes' }]])
  const sample = Array.from({ length: 30 }, (_, i) => no(`s${i}`))
  return buildQueue(input([qa(isSpam, { keyed: [no('k1')], sample, unsure: [] })], { key, verdicts }))
}
const request = { question: 'is_spam', reviewer: 'ann', reviewedAt: '2026-02-03T04:05:06.789' }

t.test('checkVerdict returns the record to save for a row the queue offers as that kind', async (t) => {
  const record = checkVerdict(reviewQueue(), {
    ...request,
    stateHash: hashOf('k1'),
    kind: 'disagreement',
    verdict: 'both_ok',
  })
  t.same(record, {
    reviewed_at: '2026-02-03T04:05:06.789',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: hashOf('k1'),
    kind: 'disagreement',
    verdict: 'both_ok',
    labels: ['no', 'yes'],
    model_label: 'no',
    key_label: 'yes',
    state: { message: 'k1' },
    stratum: 'confident',
    rank: null,
  })
  t.match(
    checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('s4'), kind: 'spot_check', verdict: 'confirmed' }),
    { stratum: 'confident', rank: 5 },
  )
  const labeled = checkVerdict(reviewQueue(), {
    ...request,
    stateHash: hashOf('s29'),
    kind: 'spot_check',
    verdict: 'labeled',
    label: 'yes',
  })
  t.match(
    labeled,
    { labels: ['yes'], key_label: null, model_label: 'no' },
    'a row beyond the first page is offered too',
  )
  const confirmed = checkVerdict(reviewQueue(), {
    ...request,
    stateHash: hashOf('s0'),
    kind: 'spot_check',
    verdict: 'confirmed',
    label: 'yes',
  })
  t.same(confirmed.labels, ['no'], 'confirmed saves the label under check, whatever label is sent')
})

t.test('checkVerdict answers 409 for a forged state hash, a reviewed row or the wrong kind', async (t) => {
  const conflict = (stateHash: string, kind: string, verdict: string, queue = reviewQueue()) =>
    t.throws(() => checkVerdict(queue, { ...request, stateHash, kind, verdict }), {
      name: 'ConflictError',
      status: 409,
    })
  conflict('0123456789abcdef', 'spot_check', 'confirmed')
  conflict('<script>', 'spot_check', 'confirmed')
  conflict(hashOf('k1'), 'spot_check', 'confirmed')
  conflict(hashOf('s0'), 'unsure', 'confirmed')
  conflict(hashOf('s0'), 'spot_check', 'confirmed', reviewQueue(new Map([verdictOn('is_spam', 's0')])))
  t.throws(
    () =>
      checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('k1'), kind: 'spot_check', verdict: 'confirmed' }),
    { message: /offers row [0-9a-f]{16} as disagreement, not spot_check/ },
  )
})

t.test(
  'a verdict of a known kind for a row offered as another kind is 409 even when that kind does not take the verdict',
  async (t) => {
    t.throws(
      () =>
        checkVerdict(reviewQueue(), {
          ...request,
          stateHash: hashOf('s0'),
          kind: 'disagreement',
          verdict: 'model_right',
        }),
      { name: 'ConflictError', status: 409, message: /offers row [0-9a-f]{16} as spot_check, not disagreement/ },
    )
    t.throws(
      () =>
        checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('k1'), kind: 'unsure', verdict: 'model_right' }),
      { name: 'ConflictError', status: 409 },
      'same for a disagreement',
    )
  },
)

t.test(
  'checkVerdict answers 400 for an unknown verdict, kind or question, a foreign label, or a verdict the kind does not take',
  async (t) => {
    const usage = (fields: Partial<Parameters<typeof checkVerdict>[1]>, message: RegExp) =>
      t.throws(
        () =>
          checkVerdict(reviewQueue(), {
            ...request,
            stateHash: hashOf('s0'),
            kind: 'spot_check',
            verdict: 'confirmed',
            ...fields,
          }),
        { name: 'UsageError', status: 400, message },
      )
    usage({ verdict: 'approve' }, /unknown verdict "approve"/)
    usage({ kind: 'random' }, /unknown kind "random"/)
    usage({ question: 'colour' }, /unknown question "colour"; the questions of spam are: is_spam, topic, urgency/)
    usage({ verdict: 'labeled', label: 'maybe' }, /needs a label of question is_spam \(yes, no\), not "maybe"/)
    usage({ verdict: 'labeled' }, /not ""/)
    usage({ verdict: 'model_right' }, /verdict model_right does not apply to a spot_check row/)
    usage({ verdict: 'x'.repeat(500) }, /"x{40}…"/)
  },
)
