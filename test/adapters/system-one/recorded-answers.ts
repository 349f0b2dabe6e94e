import t from 'tap'
import { createSystemOne } from '../../../src/adapters/system-one/system-one.ts'
import { question } from '../../helpers/engine-contract.ts'
import { startSystemOneServer } from '../../helpers/system-one-server.ts'
import { RECORDED_ANSWERS, RECORDED_MODEL_LIST, SDK_MODEL_LIST } from '../../fixtures/system-one-answers.ts'

// Each answer body recorded by a public client of the API, replayed as it stands by a local server,
// parses through the adapter to the distribution its source implies, with what it gives beside it.

for (const recorded of RECORDED_ANSWERS) {
  t.test(`${recorded.source}: the recorded answer reads as its distributions, facts and usage`, async (t) => {
    const server = await startSystemOneServer({ reply: () => ({ status: 200, body: recorded.body }) })
    t.teardown(() => server.close())
    const questions = recorded.questions.map((q) =>
      question(q.name, q.type, q.labels, q.descriptions ?? q.labels.map(() => null)),
    )
    const engine = createSystemOne({ apiKey: 'sk-fixture', url: server.url })
    const result = await engine.ask({ model: recorded.model, state: { message: 'recorded' }, questions })
    t.equal(result.model, recorded.model)
    t.same(result.distributions, recorded.distributions)
    t.same(result.facts ?? {}, recorded.facts, 'what is given beside the distribution, and nothing made up')
    t.same({ inputTokens: result.inputTokens, outputTokens: result.outputTokens }, recorded.usage)
  })
}

t.test('the fixtures cover the three answer types with and without temperature and option_mass', async (t) => {
  const types = (withMass: boolean) =>
    new Set(
      RECORDED_ANSWERS.flatMap((r) =>
        r.questions.filter((q) => (r.facts[q.name]?.optionMass !== undefined) === withMass).map((q) => q.type),
      ),
    )
  t.same([...types(true)].sort(), ['choice', 'scale', 'yes_no'])
  t.same([...types(false)].sort(), ['choice', 'scale', 'yes_no'])
})

t.test('recorded lists of models read as names, descriptions and release dates', async (t) => {
  for (const [body, names] of [
    [RECORDED_MODEL_LIST, ['jev-latest', 'jev-preview']],
    [SDK_MODEL_LIST, ['jev-latest']],
  ] as const) {
    const server = await startSystemOneServer({ reply: () => ({ status: 200, body }) })
    t.teardown(() => server.close())
    const models = await createSystemOne({ apiKey: 'sk-fixture', url: server.url }).models!()
    t.same(
      models.map((m) => m.name),
      names,
    )
  }
  const live = JSON.parse(RECORDED_MODEL_LIST).models
  const server = await startSystemOneServer({ reply: () => ({ status: 200, body: RECORDED_MODEL_LIST }) })
  t.teardown(() => server.close())
  t.same(
    await createSystemOne({ apiKey: 'sk-fixture', url: server.url }).models!(),
    live.map((m: { name: string; description: string; release_date: string }) => ({
      name: m.name,
      description: m.description,
      releaseDate: m.release_date,
    })),
  )
})
