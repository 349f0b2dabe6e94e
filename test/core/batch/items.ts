import t from 'tap'
import {
  createItemGatherer,
  createItemRebuilder,
  itemKey,
  pendingKey,
  type PendingQuestions,
} from '../../../src/core/batch/items.ts'
import type { Spec } from '../../../src/core/types.ts'
import type { BatchItem } from '../../../src/ports/engine.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { langSpec, spec, toneSpec } from '../../helpers/specs.ts'

const row = (message: string) => ({ row: { message }, where: `row ${message}` })

/** A gatherer whose items are kept per judgment, as the test reads them. */
function gather(d: Parameters<typeof createItemGatherer>[0], specs: Spec[], held: PendingQuestions = new Map()) {
  const items = new Map<string, BatchItem[]>(specs.map((s) => [s.name, []]))
  const g = createItemGatherer(d, specs, held, (judgment, item) => items.get(judgment)!.push(item))
  return { add: g.add, result: () => ({ items, waiting: g.waiting() }) }
}

/** Stores the answer "fr" to lang's question for the row "bonjour", as a chained judgment's state needs. */
function answerFrench(d: ReturnType<typeof deps>, lang: Spec): void {
  const q = lang.questions[0]
  const hash = stateHash({ message: 'bonjour' })
  d.store.putAnswers(
    [
      {
        model: 'jev-test',
        fingerprint: q.fingerprint,
        stateHash: hash,
        judgment: 'lang',
        question: 'lang',
        distribution: { en: 0, fr: 1 },
        label: 'fr',
        p: 1,
        margin: 1,
        askedAt: '2026-01-01T00:00:00',
        reportedModel: 'jev-test',
        optionMass: null,
      },
    ],
    hash,
    { message: 'bonjour' },
  )
}

t.test('one item per distinct state, with the questions the store lacks', async (t) => {
  const d = deps(createFakeEngine())
  const s = spec()
  const [first] = s.questions
  d.store.putAnswers(
    [
      {
        model: 'jev-test',
        fingerprint: first.fingerprint,
        stateHash: stateHash({ message: 'a' }),
        judgment: 'spam',
        question: first.name,
        distribution: { yes: 1, no: 0 },
        label: 'yes',
        p: 1,
        margin: 1,
        askedAt: '2026-01-01T00:00:00',
        reportedModel: 'jev-test',
        optionMass: null,
      },
    ],
    stateHash({ message: 'a' }),
    { message: 'a' },
  )
  const g = gather(d, [s])
  for (const m of ['a', 'b', 'a']) g.add(row(m))
  const { items, waiting } = g.result()
  const got = items.get('spam')!
  t.equal(got.length, 2)
  t.same(
    got[0].request.questions.map((q) => q.name),
    ['topic', 'urgency'],
    'the stored question is left out',
  )
  t.equal(
    got[0].key,
    itemKey(
      'jev-test',
      stateHash({ message: 'a' }),
      got[0].request.questions.map((q) => q.fingerprint),
    ),
  )
  t.match(got[0].key, /^[0-9a-f]{40}$/)
  t.equal(got[1].request.questions.length, 3)
  t.equal(waiting, 0)
})

t.test('questions a pending batch holds go into no other', async (t) => {
  const s = spec()
  const held = new Map([
    [pendingKey('jev-test', stateHash({ message: 'a' })), new Set(s.questions.map((q) => q.fingerprint))],
  ])
  const g = gather(deps(createFakeEngine()), [s], held)
  g.add(row('a'))
  g.add(row('b'))
  const { items } = g.result()
  t.same(
    items.get('spam')!.map((i) => i.request.state),
    [{ message: 'b' }],
  )
})

t.test('a judgment whose state needs a label not answered yet waits; once answered, it is gathered', async (t) => {
  const d = deps(createFakeEngine())
  const lang = langSpec()
  const tone = toneSpec()
  const g = gather(d, [lang, tone])
  g.add(row('bonjour'))
  t.equal(g.result().items.get('tone')!.length, 0)
  t.equal(g.result().waiting, 1)
  answerFrench(d, lang)
  const again = gather(d, [lang, tone])
  again.add(row('bonjour'))
  t.same(again.result().items.get('lang'), [])
  t.same(again.result().items.get('tone')![0].request.state, { message: 'bonjour', 'lang.lang': 'fr' })
})

t.test('two judgments with the same state each get their item', async (t) => {
  const a = spec()
  const b = spec(SPAM_COPY, '/specs/copy.judge.yaml')
  const g = gather(deps(createFakeEngine()), [a, b])
  g.add(row('x'))
  t.equal(g.result().items.get('spam')!.length, 1)
  t.equal(g.result().items.get('copy')!.length, 1)
})

const SPAM_COPY = 'name: copy\nstate: [message]\nquestions:\n  other:\n    ask: Other?\n    type: yes_no\n'

t.test("a chained judgment's batch is rebuilt with the labels its state holds", async (t) => {
  const d = deps(createFakeEngine())
  const lang = langSpec()
  const tone = toneSpec()
  answerFrench(d, lang)
  const state = { message: 'bonjour', 'lang.lang': 'fr' }
  const fingerprints = tone.questions.map((x) => x.fingerprint)
  const entry = { key: 'k1', stateHash: stateHash(state), fingerprints }
  const r = createItemRebuilder(d, [lang, tone], [{ tag: 't', judgment: 'tone', model: 'jev-test', entries: [entry] }])
  r.add(row('bonjour'))
  r.add(row('bonjour'))
  r.add(row('salut'))
  t.same(
    r
      .items()
      .get('t')!
      .map((i) => [i.key, i.request.state]),
    [['k1', state]],
    'found once, with the label from the store',
  )
})

t.test("several batches are rebuilt in one pass, each item by its batch's tag", async (t) => {
  const d = deps(createFakeEngine())
  const s = spec()
  const [a, b, c] = s.questions.map((q) => q.fingerprint)
  const hi = stateHash({ message: 'hi' })
  const yo = stateHash({ message: 'yo' })
  const r = createItemRebuilder(
    d,
    [s],
    [
      { tag: 'old', judgment: 'spam', model: 'jev-test', entries: [{ key: 'k1', stateHash: hi, fingerprints: [a] }] },
      {
        tag: 'new',
        judgment: 'spam',
        model: 'jev-test',
        entries: [
          { key: 'k2', stateHash: hi, fingerprints: [b, c] },
          { key: 'k3', stateHash: yo, fingerprints: [a, b, c] },
        ],
      },
      {
        tag: 'other',
        judgment: 'spam',
        model: 'jev-other',
        entries: [{ key: 'k4', stateHash: hi, fingerprints: [a] }],
      },
    ],
  )
  for (const message of ['hi', 'yo', 'hi']) r.add(row(message))
  const keys = (tag: string) =>
    r
      .items()
      .get(tag)!
      .map((i) => [i.key, i.request.questions.length])
  t.same(keys('old'), [['k1', 1]])
  t.same(
    keys('new'),
    [
      ['k2', 2],
      ['k3', 3],
    ],
    'a state two batches hold is in each',
  )
  t.same(keys('other'), [], "a state asked of another model is not that batch's")
})
