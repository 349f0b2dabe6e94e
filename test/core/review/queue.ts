import t from 'tap'
import { rankLabels } from '../../../src/core/judge/answer.ts'
import { buildQueue, disagrees } from '../../../src/core/review/queue.ts'
import { verdictChoices, verdictKey } from '../../../src/core/review/verdicts.ts'
import { answer, hashOf, input, isSpam, keyOf, no, qa, topic, verdictOn, yes } from '../../helpers/queue-input.ts'

const rowsOf = (q: { offered: readonly { question: string; kind: string; stateHash: string }[] }) =>
  q.offered.map((c) => `${c.question}:${c.kind}:${c.stateHash}`)
const row = (question: string, kind: string, message: string) => `${question}:${kind}:${hashOf(message)}`

t.test('disagreements are the key rows whose current label differs from the key, in key order', async (t) => {
  const key = keyOf([
    ['b', { is_spam: 'yes' }],
    ['a', { is_spam: 'yes' }],
    ['c', { is_spam: 'no' }],
    ['d', { topic: 'service' }],
  ])
  const keyed = [no('a'), no('b'), no('c'), no('d')]
  const queue = buildQueue(input([qa(isSpam, { keyed })], { key }))
  t.same(rowsOf(queue), [row('is_spam', 'disagreement', 'b'), row('is_spam', 'disagreement', 'a')])
  t.ok(disagrees(isSpam, no('a'), key.get(hashOf('a'))))
  t.notOk(disagrees(isSpam, no('d'), key.get(hashOf('d'))), 'no key label for the question, no disagreement')
  t.notOk(disagrees(isSpam, no('z'), undefined))
})

t.test('the spot check takes the first audit rows of the confident stratum in rank order', async (t) => {
  const sample = ['s3', 's1', 's2', 's4'].map((m) => no(m))
  const queue = buildQueue(input([qa(isSpam, { sample })], { spotChecks: 3 }))
  t.same(
    rowsOf(queue),
    ['s3', 's1', 's2'].map((m) => row('is_spam', 'spot_check', m)),
  )
  t.same(rowsOf(buildQueue(input([qa(isSpam, { sample })], { spotChecks: 0 }))), [], 'audit 0 spot-checks nothing')
})

t.test('the unsure stratum is offered whole, in rank order, not lowest margin first', async (t) => {
  const unsure = [no('u2', 0.55), yes('u3', 0.59), yes('u1', 0.52)]
  const queue = buildQueue(input([qa(isSpam, { unsure })], { spotChecks: 0 }))
  t.same(
    rowsOf(queue),
    ['u2', 'u3', 'u1'].map((m) => row('is_spam', 'unsure', m)),
  )
  t.same(
    queue.offered.map((c) => [c.stratum, c.rank]),
    [
      ['unsure', 1],
      ['unsure', 2],
      ['unsure', 3],
    ],
  )
})

t.test(
  'a card carries its stratum and place in the rank order; a disagreement past the rows read has none',
  async (t) => {
    const key = keyOf([
      ['k1', { is_spam: 'yes' }],
      ['k2', { is_spam: 'yes' }],
    ])
    const queue = buildQueue(
      input([qa(isSpam, { keyed: [no('k1'), no('k2', 0.55)], sample: [no('s1'), no('k1')] })], { key }),
    )
    t.same(
      queue.offered.map((c) => [c.kind, c.stratum, c.rank]),
      [
        ['disagreement', 'confident', 2],
        ['disagreement', 'unsure', null],
        ['spot_check', 'confident', 1],
      ],
    )
  },
)

t.test(
  'every disagreement comes first, then the spot checks, then the unsure rows, questions in spec order',
  async (t) => {
    const key = keyOf([['k1', { is_spam: 'yes', topic: 'service' }]])
    const queue = buildQueue(
      input(
        [
          qa(isSpam, { keyed: [no('k1')], sample: [no('s1')], unsure: [yes('u1', 0.55)] }),
          qa(topic, {
            keyed: [answer(topic, 'k1', { personal: 0.7, promotion: 0.2, service: 0.1 })],
            sample: [answer(topic, 's2', { personal: 0.9, promotion: 0.05, service: 0.05 })],
          }),
        ],
        { key },
      ),
    )
    t.same(
      queue.offered.map((c) => c.kind),
      ['disagreement', 'disagreement', 'spot_check', 'spot_check', 'unsure'],
    )
    t.same(
      queue.offered.map((c) => c.question),
      ['is_spam', 'topic', 'is_spam', 'topic', 'is_spam'],
    )
  },
)

t.test('a row offered under one kind is not offered again under a later kind of the same question', async (t) => {
  const key = keyOf([['both', { is_spam: 'yes' }]])
  const sample = [no('both'), no('s1'), no('s2')]
  const unsure = [no('both', 0.55), no('s1', 0.55), no('u1', 0.55)]
  const queue = buildQueue(
    input(
      [
        qa(isSpam, { keyed: [no('both')], sample, unsure }),
        qa(topic, { sample: [answer(topic, 'both', { personal: 1 })] }),
      ],
      { key, spotChecks: 3 },
    ),
  )
  t.same(
    rowsOf(queue),
    [
      row('is_spam', 'disagreement', 'both'),
      row('is_spam', 'spot_check', 's1'),
      row('topic', 'spot_check', 'both'),
      row('is_spam', 'spot_check', 's2'),
      row('is_spam', 'unsure', 'u1'),
    ],
    'the sample is not refilled for the disagreement it held; another question still offers the row',
  )
})

t.test(
  'a row leaves the queue once it has a verdict for that question, and reviewed sample rows are not replaced',
  async (t) => {
    const key = keyOf([['k1', { is_spam: 'yes' }]])
    const sample = ['s1', 's2', 's3', 's4'].map((m) => no(m))
    const verdicts = new Map([
      verdictOn('is_spam', 'k1', 'key_right'),
      verdictOn('is_spam', 's1'),
      verdictOn('topic', 's2'),
      verdictOn('is_spam', 'u1'),
    ])
    const queue = buildQueue(
      input([qa(isSpam, { keyed: [no('k1')], sample, unsure: [no('u1', 0.55), no('u2', 0.55)] })], {
        key,
        verdicts,
        spotChecks: 3,
      }),
    )
    t.same(rowsOf(queue), [
      row('is_spam', 'spot_check', 's2'),
      row('is_spam', 'spot_check', 's3'),
      row('is_spam', 'unsure', 'u2'),
    ])
  },
)

t.test("a verdict on the same row of another judgment leaves it in this judgment's queue", async (t) => {
  const [, record] = verdictOn('is_spam', 's1')
  const verdicts = new Map([[verdictKey('other', 'is_spam', hashOf('s1')), { ...record, judgment: 'other' }]])
  const queue = buildQueue(input([qa(isSpam, { sample: [no('s1')] })], { verdicts }))
  t.same(rowsOf(queue), [row('is_spam', 'spot_check', 's1')])
})

t.test(
  'each card, on the page or past it, has its own top labels and verdicts, and JSON of it keeps them',
  async (t) => {
    const key = keyOf([
      ['k1', { topic: 'service' }],
      ['k2', { topic: 'service' }],
    ])
    const dists = [
      { personal: 0.5, promotion: 0.3, service: 0.2 },
      { personal: 0.2, promotion: 0.3, service: 0.5 },
      { personal: 0.4, promotion: 0.4, service: 0.2 },
    ]
    const of = (m: string, i: number) => answer(topic, m, dists[i % 3])
    const sample = Array.from({ length: 30 }, (_, i) => of(`s${i}`, i))
    const unsure = Array.from({ length: 6 }, (_, i) => of(`u${i}`, i))
    const keyed = [of('k1', 0), of('k2', 0)]
    const queue = buildQueue(input([qa(topic, { keyed, sample, unsure })], { key, limit: 5 }))
    t.equal(queue.offered.length, 38)
    for (const card of queue.offered) {
      const stored = [...keyed, ...sample, ...unsure].find((a) => a.stateHash === card.stateHash)!
      t.same(card.top, rankLabels(topic, stored.distribution).slice(0, 3))
      t.same(card.verdicts, verdictChoices(card.kind, topic, card))
      t.strictSame(JSON.parse(JSON.stringify(card)), card)
    }
  },
)

t.test('spot checks and unsure rows take the questions in turn, one row each', async (t) => {
  const queue = buildQueue(
    input([
      qa(isSpam, { sample: [no('s1'), no('s2'), no('s3')], unsure: [yes('u1', 0.55)] }),
      qa(topic, {
        sample: [answer(topic, 't1', { personal: 0.9, service: 0.1 })],
        unsure: ['v1', 'v2'].map((m) => answer(topic, m, { personal: 0.5, service: 0.45, promotion: 0.05 })),
      }),
    ]),
  )
  t.same(rowsOf(queue), [
    row('is_spam', 'spot_check', 's1'),
    row('topic', 'spot_check', 't1'),
    row('is_spam', 'spot_check', 's2'),
    row('is_spam', 'spot_check', 's3'),
    row('is_spam', 'unsure', 'u1'),
    row('topic', 'unsure', 'v1'),
    row('topic', 'unsure', 'v2'),
  ])
})

t.test('a page holds at most limit cards; the queue keeps every row offered', async (t) => {
  const sample = Array.from({ length: 40 }, (_, i) => no(`s${i}`))
  const queue = buildQueue(input([qa(isSpam, { sample })], { spotChecks: 40 }))
  t.equal(queue.cards.length, 25)
  t.equal(queue.offered.length, 40)
  t.same(queue.cards, queue.offered.slice(0, 25))
})

t.test("a card shows the state, the model's answer and top three labels, the key label and its verdicts", async (t) => {
  const key = keyOf([['k1', { topic: 'service' }]])
  const queue = buildQueue(
    input([qa(topic, { keyed: [answer(topic, 'k1', { personal: 0.5, promotion: 0.3, service: 0.2 })] })], { key }),
  )
  t.same(queue.cards[0], {
    judgment: 'spam',
    question: 'topic',
    stateHash: hashOf('k1'),
    kind: 'disagreement',
    stratum: 'confident',
    rank: null,
    state: { message: 'k1' },
    modelLabel: 'personal',
    p: 0.5,
    margin: 0.2,
    top: [
      { label: 'personal', p: 0.5 },
      { label: 'promotion', p: 0.3 },
      { label: 'service', p: 0.2 },
    ],
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
  const queue = buildQueue(input([qa(isSpam, { sample: [no('k1'), no('lost')] })], { key, states: new Map() }))
  t.same(rowsOf(queue), [row('is_spam', 'spot_check', 'k1')])
  t.match(queue.cards[0], {
    keyLabel: 'no',
    state: { message: 'k1' },
    verdicts: [{ verdict: 'confirmed' }, { verdict: 'labeled', label: 'yes' }, {}, {}],
  })
})
