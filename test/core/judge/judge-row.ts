import t from 'tap'
import {
  chainedRow,
  countStored,
  judgeOrdered,
  judgeRow,
  judgeSpec,
  storedAnswers,
} from '../../../src/core/judge/judge-row.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { deps } from '../../helpers/deps.ts'
import { project, spec, SPAM_YAML } from '../../helpers/specs.ts'

const spam = spec()
const row = { message: 'WIN a prize now', extra: 1 }

t.test('a first judgment asks every question in one request and stores the answers', async (t) => {
  const engine = createFakeEngine({
    answer: (q) =>
      q.type === 'yes_no'
        ? { yes: 0.97, no: 0.03 }
        : Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 0.6 : 0.4 / (q.labels.length - 1)])),
  })
  const d = deps(engine)
  const ledger = createLedger(1)
  const result = await judgeSpec({ deps: d, ledger }, spam, { row, where: 'row' })
  t.equal(engine.calls.length, 1)
  t.same(
    engine.calls[0].questions.map((q) => q.name),
    ['is_spam', 'topic', 'urgency'],
  )
  t.same(engine.calls[0].state, { message: 'WIN a prize now' })
  t.same(result.answers.is_spam, {
    label: 'yes',
    p: 0.97,
    margin: 0.94,
    route: 'block',
    cached: false,
    p_source: 'distribution',
  })
  t.same(result.answers.topic, {
    label: 'personal',
    p: 0.6,
    margin: 0.4,
    route: '',
    cached: false,
    p_source: 'distribution',
  })
  t.match(ledger.tally('spam'), { asked: 3, requests: 1, cached: 0 })
  t.ok(ledger.tally('spam').cost > 0)
  const again = await judgeSpec({ deps: d, ledger }, spam, { row, where: 'row' })
  t.equal(engine.calls.length, 1, 'the second judgment is served by the store')
  t.same(again.answers.is_spam, { ...result.answers.is_spam, cached: true })
  t.equal(ledger.tally('spam').cached, 3)
})

t.test('only the questions the store lacks are asked', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  await judgeSpec({ deps: d, ledger: createLedger(1) }, spam, { row, where: 'row' })
  const reworded = parseSpec(SPAM_REWORDED, '/specs/spam.judge.yaml')
  const result = await judgeSpec({ deps: d, ledger: createLedger(1) }, reworded, { row, where: 'row' })
  t.same(
    engine.calls[1].questions.map((q) => q.name),
    ['topic'],
    'editing one question asks only it again',
  )
  t.equal(result.answers.is_spam.cached, true)
  t.equal(result.answers.topic.cached, false)
})

t.test('a missing state column is an error naming it and where', async (t) => {
  await t.rejects(
    judgeSpec({ deps: deps(createFakeEngine()), ledger: createLedger(1) }, spam, {
      row: { text: 'x' },
      where: 'data.csv:7',
    }),
    /data\.csv:7: the row lacks the state column "message"/,
  )
})

t.test('chained judgments judge their dependency first and use its label as state', async (t) => {
  const base = parseSpec(
    'state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n',
    '/specs/lang.judge.yaml',
  )
  const dependent = parseSpec(
    'state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n',
    '/specs/tone.judge.yaml',
  )
  const engine = createFakeEngine({
    answer: (q): Record<string, number> => (q.name === 'lang' ? { en: 0.2, fr: 0.8 } : { yes: 0.9, no: 0.1 }),
  })
  const results = await judgeRow(
    { deps: deps(engine), ledger: createLedger(1) },
    project(base, dependent),
    [dependent],
    { row: { message: 'bonjour' }, where: 'row' },
  )
  t.same([...results.keys()], ['lang', 'tone'])
  t.same(engine.calls[1].state, { message: 'bonjour', 'lang.lang': 'fr' })
  t.same(chainedRow({ message: 'x' }, dependent, results), { message: 'x', 'lang.lang': 'fr' })
})

const SPAM_REWORDED = SPAM_YAML.replace('What is the message mainly about?', 'What is this message about?')

t.test(
  'the probe answers a row the store holds in full, synchronously, and gives null for one it lacks, asking nothing',
  async (t) => {
    const engine = createFakeEngine()
    const d = deps(engine)
    const sourced = { row, where: 'row' }
    t.equal(storedAnswers(d, [spam], sourced), null, 'a row to ask: null, and nothing asked')
    t.equal(engine.calls.length, 0)
    const ledger = createLedger(1)
    const judged = await judgeOrdered({ deps: d, ledger }, [spam], sourced)
    t.equal(ledger.tally('spam').asked, 3)
    const stored = storedAnswers(d, [spam], sourced)
    t.notOk(stored instanceof Promise, 'a value, not a promise')
    t.same(
      stored!.get('spam')!.answers,
      Object.fromEntries(Object.entries(judged.get('spam')!.answers).map(([q, a]) => [q, { ...a, cached: true }])),
    )
    t.equal(engine.calls.length, 1, 'the probe asked nothing')
    const counted = createLedger(1)
    countStored(counted, stored!)
    t.equal(counted.tally('spam').cached, 3, 'its answers count as cached, as judging them would')
    t.throws(
      () => storedAnswers(d, [spam], { row: { text: 'x' }, where: 'data.csv:7' }),
      /data\.csv:7: the row lacks the state column "message"/,
      'a bad row throws',
    )
  },
)

t.test(
  "the probe follows chaining: a dependent judgment is answered from the store with its dependency's label",
  async (t) => {
    const base = parseSpec(
      'state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n',
      '/specs/lang.judge.yaml',
    )
    const dependent = parseSpec(
      'state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n',
      '/specs/tone.judge.yaml',
    )
    const engine = createFakeEngine({
      answer: (q): Record<string, number> => (q.name === 'lang' ? { en: 0.2, fr: 0.8 } : { yes: 0.9, no: 0.1 }),
    })
    const d = deps(engine)
    const sourced = { row: { message: 'bonjour' }, where: 'row' }
    t.equal(storedAnswers(d, [base, dependent], sourced), null)
    await judgeRow({ deps: d, ledger: createLedger(1) }, project(base, dependent), [dependent], sourced)
    const stored = storedAnswers(d, [base, dependent], sourced)
    t.same([...stored!.keys()], ['lang', 'tone'])
    t.equal(stored!.get('tone')!.state['lang.lang'], 'fr')
    t.equal(engine.calls.length, 2, 'the probe asked nothing')
  },
)

t.test(
  'a stored answer is served as it was stored: its label, p and margin are not read again from the distribution',
  async (t) => {
    const engine = createFakeEngine()
    const d = deps(engine)
    const hash = stateHash({ message: row.message })
    // An even split stored with the second label (as an older version's reading might have put it).
    d.store.putAnswers(
      spam.questions.map((q) => ({
        model: d.defaultModel!,
        fingerprint: q.fingerprint,
        stateHash: hash,
        judgment: 'spam',
        question: q.name,
        distribution: Object.fromEntries(q.labels.map((l) => [l, 1 / q.labels.length])),
        label: q.labels[1],
        p: 0.5,
        margin: 0,
        askedAt: '2026-01-01T00:00:00.000',
      })),
      hash,
      { message: row.message },
    )
    const served = await judgeSpec({ deps: d, ledger: createLedger(1) }, spam, { row, where: 'row' })
    t.equal(engine.calls.length, 0)
    t.same(
      served.answers.is_spam,
      { label: 'no', p: 0.5, margin: 0, route: 'review', cached: true, p_source: 'distribution' },
      'routed by the stored reading',
    )
    t.same(served.answers.topic, {
      label: spam.questions[1].labels[1],
      p: 0.5,
      margin: 0,
      route: '',
      cached: true,
      p_source: 'distribution',
    })
  },
)
