import t from 'tap'
import { buildQueue, checkVerdict, disagrees, type QueueInput, type QuestionAnswers } from '../../../src/core/review/queue.ts'
import { verdictKey, type KeyRow, type VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import type { Distribution, Question } from '../../../src/core/types.ts'
import type { StoredAnswer } from '../../../src/ports/store.ts'
import { spec } from '../../helpers/specs.ts'

const judgment = spec()
const isSpam = judgment.questions.find((q) => q.name === 'is_spam')!
const topic = judgment.questions.find((q) => q.name === 'topic')!

const hashOf = (message: string) => stateHash({ message })

function answer(question: Question, message: string, distribution: Distribution): StoredAnswer {
  return {
    model: 'm', fingerprint: question.fingerprint, stateHash: hashOf(message), judgment: 'spam', question: question.name,
    distribution, label: '', p: 0, margin: 0, askedAt: '2026-01-01T00:00:00.000', reportedModel: 'm',
  }
}
const yes = (message: string, p = 0.9) => answer(isSpam, message, { yes: p, no: Math.round((1 - p) * 100) / 100 })
const no = (message: string, p = 0.9) => answer(isSpam, message, { yes: Math.round((1 - p) * 100) / 100, no: p })

function keyOf(rows: [string, Record<string, string>][]): Map<string, KeyRow> {
  return new Map(rows.map(([message, labels], i) => [hashOf(message), { stateHash: hashOf(message), state: { message }, labels, where: `key.csv:${i + 2}` }]))
}

function verdictOn(question: string, message: string, verdict: VerdictRecord['verdict'] = 'ambiguous'): [string, VerdictRecord] {
  const record: VerdictRecord = {
    reviewed_at: '2026-01-01T00:00:00.000', reviewer: 'ann', judgment: 'spam', question, state_hash: hashOf(message),
    kind: 'spot_check', verdict, labels: [], model_label: 'no', key_label: null, state: { message },
  }
  return [verdictKey('spam', question, hashOf(message)), record]
}

function input(answers: QuestionAnswers[], more: Partial<QueueInput> = {}): QueueInput {
  const states = new Map(answers.flatMap((qa) => [...qa.sample, ...qa.unsure]).map((a) => [a.stateHash, { message: `state of ${a.stateHash}` }]))
  return { spec: judgment, answers, key: new Map(), verdicts: new Map(), states, audit: 30, unsureBelow: 0.2, limit: 25, ...more }
}

const none = { keyed: [], sample: [], unsure: [] }
const rowsOf = (q: { offered: readonly { question: string; kind: string; stateHash: string }[] }) => q.offered.map((c) => `${c.question}:${c.kind}:${c.stateHash}`)
const row = (question: string, kind: string, message: string) => `${question}:${kind}:${hashOf(message)}`

t.test('disagreements are the key rows whose current label differs from the key, in key order', async (t) => {
  const key = keyOf([['b', { is_spam: 'yes' }], ['a', { is_spam: 'yes' }], ['c', { is_spam: 'no' }], ['d', { topic: 'service' }]])
  const keyed = [no('a'), no('b'), no('c'), no('d')]
  const queue = buildQueue(input([{ question: isSpam, ...none, keyed }], { key }))
  t.same(rowsOf(queue), [row('is_spam', 'disagreement', 'b'), row('is_spam', 'disagreement', 'a')])
  t.ok(disagrees(isSpam, no('a'), key.get(hashOf('a'))))
  t.notOk(disagrees(isSpam, no('d'), key.get(hashOf('d'))), 'no key label for the question, no disagreement')
  t.notOk(disagrees(isSpam, no('z'), undefined))
})

t.test('the spot check takes the first audit rows of the sample in its order', async (t) => {
  const sample = ['s3', 's1', 's2', 's4'].map((m) => no(m))
  const queue = buildQueue(input([{ question: isSpam, ...none, sample }], { audit: 3 }))
  t.same(rowsOf(queue), ['s3', 's1', 's2'].map((m) => row('is_spam', 'spot_check', m)))
  t.same(rowsOf(buildQueue(input([{ question: isSpam, ...none, sample }], { audit: 0 }))), [], 'audit 0 spot-checks nothing')
})

t.test('unsure rows are those below unsure_below, lowest margin first, and none without unsure_below', async (t) => {
  const unsure = [yes('u1', 0.52), no('u2', 0.55), yes('u3', 0.59), no('u4', 0.7)]
  const queue = buildQueue(input([{ question: isSpam, ...none, unsure }]))
  t.same(rowsOf(queue), ['u1', 'u2', 'u3'].map((m) => row('is_spam', 'unsure', m)), 'a margin of 0.4 is not below 0.2')
  t.same(rowsOf(buildQueue(input([{ question: isSpam, ...none, unsure }], { unsureBelow: null }))), [])
})

t.test('every disagreement comes first, then the spot checks, then the unsure rows, questions in spec order', async (t) => {
  const key = keyOf([['k1', { is_spam: 'yes', topic: 'service' }]])
  const queue = buildQueue(input([
    { question: isSpam, keyed: [no('k1')], sample: [no('s1')], unsure: [yes('u1', 0.55)] },
    { question: topic, keyed: [answer(topic, 'k1', { personal: 0.7, promotion: 0.2, service: 0.1 })], sample: [answer(topic, 's2', { personal: 0.9, promotion: 0.05, service: 0.05 })], unsure: [] },
  ], { key }))
  t.same(queue.offered.map((c) => c.kind), ['disagreement', 'disagreement', 'spot_check', 'spot_check', 'unsure'])
  t.same(queue.offered.map((c) => c.question), ['is_spam', 'topic', 'is_spam', 'topic', 'is_spam'])
})

t.test('a row offered under one kind is not offered again under a later kind of the same question', async (t) => {
  const key = keyOf([['both', { is_spam: 'yes' }]])
  const sample = [no('both'), no('s1'), no('s2')]
  const unsure = [no('both', 0.55), no('s1', 0.55), no('u1', 0.55)]
  const queue = buildQueue(input([{ question: isSpam, keyed: [no('both')], sample, unsure }, { question: topic, ...none, sample: [answer(topic, 'both', { personal: 1 })] }], { key, audit: 3 }))
  t.same(rowsOf(queue), [
    row('is_spam', 'disagreement', 'both'),
    row('is_spam', 'spot_check', 's1'), row('is_spam', 'spot_check', 's2'),
    row('topic', 'spot_check', 'both'),
    row('is_spam', 'unsure', 'u1'),
  ], 'the sample is not refilled for the disagreement it held; another question still offers the row')
})

t.test('a row leaves the queue once it has a verdict for that question, and reviewed sample rows are not replaced', async (t) => {
  const key = keyOf([['k1', { is_spam: 'yes' }]])
  const sample = ['s1', 's2', 's3', 's4'].map((m) => no(m))
  const verdicts = new Map([verdictOn('is_spam', 'k1', 'key_right'), verdictOn('is_spam', 's1'), verdictOn('topic', 's2'), verdictOn('is_spam', 'u1')])
  const queue = buildQueue(input([{ question: isSpam, keyed: [no('k1')], sample, unsure: [no('u1', 0.55), no('u2', 0.55)] }], { key, verdicts, audit: 3 }))
  t.same(rowsOf(queue), [row('is_spam', 'spot_check', 's2'), row('is_spam', 'spot_check', 's3'), row('is_spam', 'unsure', 'u2')])
})

t.test('a page holds at most limit cards; the queue keeps every row offered', async (t) => {
  const sample = Array.from({ length: 40 }, (_, i) => no(`s${i}`))
  const queue = buildQueue(input([{ question: isSpam, ...none, sample }], { audit: 40 }))
  t.equal(queue.cards.length, 25)
  t.equal(queue.offered.length, 40)
  t.same(queue.cards, queue.offered.slice(0, 25))
})

t.test('a card shows the state, the model\'s answer and top three labels, the key label and its verdicts', async (t) => {
  const key = keyOf([['k1', { topic: 'service' }]])
  const queue = buildQueue(input([{ question: topic, ...none, keyed: [answer(topic, 'k1', { personal: 0.5, promotion: 0.3, service: 0.2 })] }], { key }))
  t.same(queue.cards[0], {
    judgment: 'spam', question: 'topic', stateHash: hashOf('k1'), kind: 'disagreement', state: { message: 'k1' },
    modelLabel: 'personal', p: 0.5, margin: 0.2,
    top: [{ label: 'personal', p: 0.5 }, { label: 'promotion', p: 0.3 }, { label: 'service', p: 0.2 }],
    keyLabel: 'service',
    verdicts: [
      { verdict: 'model_right', label: null, text: 'model is right' },
      { verdict: 'key_right', label: null, text: 'answer key is right' },
      { verdict: 'both_ok', label: null, text: 'both acceptable' },
      { verdict: 'labeled', label: 'promotion', text: 'it is promotion' },
      { verdict: 'needs_context', label: null, text: 'needs more context' },
      { verdict: 'ambiguous', label: null, text: 'ambiguous' },
    ],
  })
})

t.test('a spot-check card of a key row shows the key label; a row whose state is unknown is not offered', async (t) => {
  const key = keyOf([['k1', { is_spam: 'no' }]])
  const queue = buildQueue(input([{ question: isSpam, ...none, sample: [no('k1'), no('lost')] }], { key, states: new Map() }))
  t.same(rowsOf(queue), [row('is_spam', 'spot_check', 'k1')])
  t.match(queue.cards[0], { keyLabel: 'no', state: { message: 'k1' }, verdicts: [{ verdict: 'confirmed' }, { verdict: 'labeled', label: 'yes' }, {}, {}] })
})

function reviewQueue(verdicts = new Map<string, VerdictRecord>()) {
  const key = keyOf([['k1', { is_spam: 'yes' }]])
  const sample = Array.from({ length: 30 }, (_, i) => no(`s${i}`))
  return buildQueue(input([{ question: isSpam, keyed: [no('k1')], sample, unsure: [] }], { key, verdicts }))
}
const request = { question: 'is_spam', reviewer: 'ann', reviewedAt: '2026-02-03T04:05:06.789' }

t.test('checkVerdict returns the record to save for a row the queue offers as that kind', async (t) => {
  const record = checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('k1'), kind: 'disagreement', verdict: 'both_ok' })
  t.same(record, {
    reviewed_at: '2026-02-03T04:05:06.789', reviewer: 'ann', judgment: 'spam', question: 'is_spam', state_hash: hashOf('k1'),
    kind: 'disagreement', verdict: 'both_ok', labels: ['no', 'yes'], model_label: 'no', key_label: 'yes', state: { message: 'k1' },
  })
  const labeled = checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('s29'), kind: 'spot_check', verdict: 'labeled', label: 'yes' })
  t.match(labeled, { labels: ['yes'], key_label: null, model_label: 'no' }, 'a row beyond the first page is offered too')
  const confirmed = checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('s0'), kind: 'spot_check', verdict: 'confirmed', label: 'yes' })
  t.same(confirmed.labels, ['no'], 'confirmed saves the label under check, whatever label is sent')
})

t.test('checkVerdict answers 409 for a forged state hash, a reviewed row or the wrong kind', async (t) => {
  const conflict = (stateHash: string, kind: string, verdict: string, queue = reviewQueue()) =>
    t.throws(() => checkVerdict(queue, { ...request, stateHash, kind, verdict }), { name: 'ConflictError', status: 409 })
  conflict('0123456789abcdef', 'spot_check', 'confirmed')
  conflict('<script>', 'spot_check', 'confirmed')
  conflict(hashOf('k1'), 'spot_check', 'confirmed')
  conflict(hashOf('s0'), 'unsure', 'confirmed')
  conflict(hashOf('s0'), 'spot_check', 'confirmed', reviewQueue(new Map([verdictOn('is_spam', 's0')])))
  t.throws(() => checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('k1'), kind: 'spot_check', verdict: 'confirmed' }),
    { message: /offers row [0-9a-f]{16} as disagreement, not spot_check/ })
})

t.test('checkVerdict answers 400 for an unknown verdict, kind or question, a foreign label, or a verdict the kind does not take', async (t) => {
  const usage = (fields: Partial<Parameters<typeof checkVerdict>[1]>, message: RegExp) =>
    t.throws(() => checkVerdict(reviewQueue(), { ...request, stateHash: hashOf('s0'), kind: 'spot_check', verdict: 'confirmed', ...fields }), { name: 'UsageError', status: 400, message })
  usage({ verdict: 'approve' }, /unknown verdict "approve"/)
  usage({ kind: 'random' }, /unknown kind "random"/)
  usage({ question: 'colour' }, /unknown question "colour"; the questions of spam are: is_spam, topic, urgency/)
  usage({ verdict: 'labeled', label: 'maybe' }, /needs a label of question is_spam \(yes, no\), not "maybe"/)
  usage({ verdict: 'labeled' }, /not ""/)
  usage({ verdict: 'model_right' }, /verdict model_right does not apply to a spot_check row/)
  usage({ verdict: 'x'.repeat(500) }, /"x{40}…"/)
})
