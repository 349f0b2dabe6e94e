import t from 'tap'
import { testJudgments, type TestInput } from '../../src/app/test-judgments.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Question } from '../../src/core/types.ts'
import { CostCapError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { verdict } from '../helpers/files-contract.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec(
  'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\nkey: spam.key.csv\n',
)
const lang = spec(
  'state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\nkey: lang.key.csv\n',
  '/specs/lang.judge.yaml',
)
const tone = spec(
  'state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\nkey: tone.key.csv\n',
  '/specs/tone.judge.yaml',
)

// The model calls spam what mentions a prize, a win or lunch: right on the key but for lunch.
const answer = (q: Question, s: Record<string, string>) =>
  q.type === 'yes_no' && /WIN|prize|lunch/.test(s.message)
    ? { yes: 0.9, no: 0.1 }
    : Object.fromEntries(q.labels.map((l, i) => [l, i === 1 ? 0.9 : 0.1 / (q.labels.length - 1)]))

const files = createMemoryFiles({
  keys: {
    '/specs/spam.key.csv': [
      { message: 'WIN now', is_spam: 'yes' },
      { message: 'hello', is_spam: 'no' },
      { message: 'lunch?', is_spam: 'no' },
    ],
    '/specs/lang.key.csv': [{ message: 'bonjour', lang: 'fr' }],
    '/specs/tone.key.csv': [
      { message: 'bonjour', 'lang.lang': 'fr', polite: 'yes' },
      { message: 'hi', 'lang.lang': 'en', polite: 'no' },
    ],
  },
  verdicts: {
    '/specs/spam.reviews.csv': [
      verdict('a prize for you', { labels: ['yes'] }),
      verdict('hello', { labels: ['no'] }),
      verdict('set aside', { verdict: 'needs_context', labels: [] }),
      verdict('another judgment', { judgment: 'tone' }),
      verdict('edited since', { state_hash: stateHash({ message: 'what it was' }) }),
    ],
  },
})

const input = (more: Partial<TestInput> = {}): TestInput => ({
  project: project(spam),
  cap: 1,
  concurrency: 2,
  ...more,
})

t.test(
  'the key rows and the rows reviewed outside the key are judged, a run is recorded, and each question scored',
  async (t) => {
    const engine = createFakeEngine({ answer })
    const d = deps(engine)
    const trials: [string, number][] = []
    const result = await testJudgments(
      app(d, files),
      input({ onTrial: (s, rows) => (trials.push([s.name, rows]), undefined) }),
    )
    t.same(
      engine.calls.map((c) => c.state.message).sort(),
      ['WIN now', 'a prize for you', 'hello', 'lunch?'],
      'a verdict without labels, of another judgment or on an edited state adds no row',
    )
    t.same(trials, [['spam', 4]])
    t.match(result.runs, [{ judgment: 'spam', rows: 4, asked: 4, status: 'complete' }])
    t.same(d.store.listRuns(['spam'], 50), result.runs)
    t.match(result.scores.get('spam')!.is_spam, { counted: 4, correct: 3, pending: 1 })
    t.same(result.specs, [spam])
  },
)

t.test('a second test asks nothing: the store answers first', async (t) => {
  const engine = createFakeEngine({ answer })
  const d = deps(engine)
  await testJudgments(app(d, files), input())
  const again = await testJudgments(app(d, files), input())
  t.equal(engine.calls.length, 4)
  t.match(again.runs, [{ rows: 4, asked: 0, cached: 4 }])
})

t.test(
  'a chained judgment is tested on the upstream labels its key gives; only it is judged and recorded',
  async (t) => {
    const engine = createFakeEngine({ answer })
    const d = deps(engine)
    const result = await testJudgments(app(d, files), input({ project: project(lang, tone), judgment: 'tone' }))
    t.same(
      engine.calls.map((c) => c.questions.map((q) => q.name)),
      [['polite'], ['polite']],
    )
    t.same(engine.calls[0].state, { message: 'bonjour', 'lang.lang': 'fr' })
    t.same(
      result.runs.map((r) => r.judgment),
      ['tone'],
    )
    t.same(d.store.listRuns(['lang'], 50), [])
  },
)

t.test('every judgment of a folder is tested, each with a run of its own', async (t) => {
  const result = await testJudgments(
    app(deps(createFakeEngine({ answer })), files),
    input({ project: project(lang, tone) }),
  )
  t.same(
    result.runs.map((r) => [r.judgment, r.rows]),
    [
      ['lang', 1],
      ['tone', 2],
    ],
  )
  t.same([...result.scores.keys()], ['lang', 'tone'])
})

t.test(
  'a judgment without key: is tested on its reviewed rows alone; with none, nothing is judged or recorded',
  async (t) => {
    const engine = createFakeEngine({ answer })
    const d = deps(engine)
    const keyless = spec(
      'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\n',
      '/specs/spam.judge.yaml',
    )
    const result = await testJudgments(app(d, files), input({ project: project(keyless) }))
    t.match(result.runs, [{ judgment: 'spam', rows: 2, source: 'reviewed rows', source_hash: '', status: 'complete' }])
    t.same(
      engine.calls.map((c) => c.state.message),
      ['a prize for you', 'hello'],
    )
    t.match(result.scores.get('spam')!.is_spam, { counted: 2, correct: 2, reviewed: 4, needs_context: 1, pending: 0 })

    const bare = spec('state: [message]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n', '/specs/bare.judge.yaml')
    const none = await testJudgments(app(d, files), input({ project: project(bare) }))
    t.same(none.runs, [])
    t.match(none.scores.get('bare')!.q, { counted: 0, reviewed: 0, estimate: { estimable: false } })
    t.equal(engine.calls.length, 2, 'nothing more asked')
    t.equal(d.store.listRuns(['bare'], 50).length, 0)
  },
)

t.test('above the cap nothing is asked and nothing recorded', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  await t.rejects(testJudgments(app(d, files), input({ cap: 0 })), CostCapError)
  t.equal(engine.calls.length, 0)
  t.same(d.store.listRuns(['spam'], 50), [])
})
