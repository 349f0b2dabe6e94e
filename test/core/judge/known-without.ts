import t, { type Test } from 'tap'
import { createOpenAi } from '../../../src/adapters/openai/openai.ts'
import { planRows } from '../../../src/app/plan.ts'
import { judgeSpec } from '../../../src/core/judge/judge-row.ts'
import { tellEngine } from '../../../src/core/judge/ask.ts'
import { tellPlannedEngines } from '../../../src/core/judge/known-without.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import type { ProbabilitySource, Spec } from '../../../src/core/types.ts'
import type { Engine } from '../../../src/ports/engine.ts'
import type { Store } from '../../../src/ports/store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { app, deps, jurorDeps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createMemoryFiles } from '../../helpers/memory-files.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { startOpenAiServer, type OpenAiServer, type OpenAiServerOptions } from '../../helpers/openai-server.ts'
import { juryOfThree, project, spec } from '../../helpers/specs.ts'

const MODEL = 'qwen2.5-7b-instruct'
const spam = spec()

/** A memory store that counts its reads of answers' sources. */
function sourceCounting(): { store: Store; reads: () => number } {
  const store = createMemoryStore()
  let reads = 0
  const countSources = store.countSources
  store.countSources = (...args) => {
    reads++
    return countSources.apply(store, args)
  }
  return { store, reads: () => reads }
}

/** Stores an answer of `model` to every question of `of` about the state `message`, its p obtained as `source`. */
function stored(store: Store, model: string, source: ProbabilitySource, message = 'stored', of: Spec = spam): void {
  const hash = stateHash({ message })
  const answers = of.questions.map((q) =>
    answer({
      model,
      judgment: of.name,
      question: q.name,
      fingerprint: q.fingerprint,
      stateHash: hash,
      distribution: Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 1 : 0])),
      label: q.labels[0],
      source,
      samples: source === 'samples' ? 3 : null,
    }),
  )
  store.putAnswers(answers, hash, { message })
}

/** A fake engine that records the models it is told send no log probabilities. */
function tellable(): Engine & { readonly told: string[] } {
  const told: string[] = []
  return { ...createFakeEngine(), told, knownWithout: (model) => void told.push(model) }
}

async function serve(t: Test, options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const server = await startOpenAiServer(options)
  t.teardown(() => server.close())
  return server
}

const openAi = (server: OpenAiServer) => createOpenAi({ url: server.url, model: MODEL, samples: 3 })

t.test('a model whose stored answers were sampled, none from log probabilities, is told once', async (t) => {
  const { store, reads } = sourceCounting()
  stored(store, MODEL, 'samples')
  stored(store, 'other', 'logprobs')
  const engine = tellable()
  tellEngine({ store, engine }, MODEL, spam.questions)
  t.same(engine.told, [MODEL])
  t.equal(reads(), 3, "one read per question of the spec's")
  tellEngine({ store, engine }, MODEL, spam.questions)
  t.equal(reads(), 3, 'read once per engine, store and model')
  t.same(engine.told, [MODEL])
  tellEngine({ store: createMemoryStore(), engine }, MODEL, spam.questions)
  const other = tellable()
  tellEngine({ store, engine: other }, MODEL, spam.questions)
  t.equal(reads(), 6, 'another engine reads again')
  t.same(other.told, [MODEL])
  tellEngine({ store, engine }, 'other', spam.questions)
  t.same(engine.told, [MODEL], 'a model with log probabilities is not told')
})

t.test('log probabilities among the answers, or no answers at all, tell nothing', async (t) => {
  const store = createMemoryStore()
  stored(store, 'mixed', 'samples', 'a')
  stored(store, 'mixed', 'logprobs', 'b')
  stored(store, 'text', 'text')
  const engine = tellable()
  for (const model of ['mixed', 'text', 'none']) tellEngine({ store, engine }, model, spam.questions)
  t.same(engine.told, [])
})

t.test('an engine that does not learn, or none, reads nothing', async (t) => {
  const { store, reads } = sourceCounting()
  stored(store, MODEL, 'samples')
  tellEngine({ store, engine: createFakeEngine() }, MODEL, spam.questions)
  tellEngine({ store, engine: null }, MODEL, spam.questions)
  t.equal(reads(), 0)
})

t.test("a plan tells a spec's engine of its model, and each juror's engine of the juror's", async (t) => {
  const store = createMemoryStore()
  const trio = juryOfThree()
  stored(store, 'jev-test', 'samples')
  stored(store, 'gpt-b', 'samples', 'x', trio)
  stored(store, 'claude-c', 'logprobs', 'x', trio)
  const engines = { own: tellable(), openai: tellable(), anthropic: tellable() }
  tellPlannedEngines(jurorDeps(engines, store), [spam, trio])
  t.same(engines.own.told, ['jev-test'], "the spam spec's model; the juror jev-a has no sampled answers")
  t.same(engines.openai.told, ['gpt-b'])
  t.same(engines.anthropic.told, [])
})

t.test("a jury's juror asked is told through its own engine, of its own model", async (t) => {
  const store = createMemoryStore()
  const trio = juryOfThree()
  stored(store, 'gpt-b', 'samples', 'x', trio)
  const engines = { own: tellable(), openai: tellable(), anthropic: tellable() }
  await judgeSpec({ deps: jurorDeps(engines, store), ledger: createLedger(1) }, trio, {
    row: { message: 'y' },
    where: 'r',
  })
  t.same(engines.openai.told, ['gpt-b'])
  t.same([...engines.own.told, ...engines.anthropic.told], [])
})

t.test('the first row asked of a fresh engine over sampled answers sends k requests per question', async (t) => {
  const server = await serve(t, { noLogprobs: true })
  const store = createMemoryStore()
  stored(store, MODEL, 'samples')
  const d = { ...deps(openAi(server), store), defaultModel: MODEL }
  const ledger = createLedger(1)
  await judgeSpec({ deps: d, ledger }, spam, { row: { message: 'WIN a prize' }, where: 'row 1' })
  t.equal(server.requests.length, 3 * 3, 'k per question, no deterministic answer first')
  t.ok(
    server.requests.every((r) => (r.body as { temperature: number }).temperature === 1),
    'every request a sample',
  )
  t.equal(ledger.tally('spam').requests, 9)
})

t.test('a model whose stored answers came with log probabilities is asked as before', async (t) => {
  const server = await serve(t, { noLogprobs: true })
  const store = createMemoryStore()
  stored(store, MODEL, 'logprobs')
  stored(store, MODEL, 'samples', 'sampled')
  const d = { ...deps(openAi(server), store), defaultModel: MODEL }
  await judgeSpec({ deps: d, ledger: createLedger(1) }, spam, { row: { message: 'WIN a prize' }, where: 'row 1' })
  t.equal(server.requests.length, 3 + 3 * 3, 'once each with log probabilities, then learnt on the wire')
})

t.test('a cache hit reads no sources; a row asked after the first reads none again', async (t) => {
  const server = await serve(t, { noLogprobs: true })
  const { store, reads } = sourceCounting()
  stored(store, MODEL, 'samples', 'WIN a prize')
  const d = { ...deps(openAi(server), store), defaultModel: MODEL }
  const job = { deps: d, ledger: createLedger(1) }
  await judgeSpec(job, spam, { row: { message: 'WIN a prize' }, where: 'row 1' })
  t.equal(reads(), 0, 'a cache hit')
  t.equal(server.requests.length, 0)
  await judgeSpec(job, spam, { row: { message: 'new' }, where: 'row 2' })
  t.equal(reads(), 3, 'the first row asked')
  await judgeSpec(job, spam, { row: { message: 'newer' }, where: 'row 3' })
  t.equal(reads(), 3, 'read once')
  t.equal(server.requests.length, 2 * 9)
})

t.test('a plan in a fresh process counts k requests per question for a model whose answers were sampled', async (t) => {
  const server = await serve(t, { noLogprobs: true })
  const one = spec(`name: one\nstate: [message]\nmodel: ${MODEL}\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n`)
  const files = createMemoryFiles({ rows: { '/specs/m.csv': ['x', 'y'].map((message) => ({ message })) } })
  const source = { kind: 'file', file: '/specs/m.csv', label: 'm.csv' } as const
  const planOf = async (sources: ProbabilitySource) => {
    const store = createMemoryStore()
    stored(store, MODEL, sources, 'stored', one)
    const [plan] = await planRows(app(deps(openAi(server), store), files), project(one), [one], source)
    return plan
  }
  t.match(await planOf('samples'), { ask: 2, requests: 2 * 3 }, 'k per question of each state')
  t.match(await planOf('logprobs'), { ask: 2, requests: 2 }, 'one per question')
  t.equal(server.requests.length, 0, 'a plan asks nothing')
})
