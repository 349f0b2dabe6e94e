import t from 'tap'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'

const BASE = 'name: s\nstate: [message]\nquestions:\n  q:\n    ask: Is it?\n    type: yes_no\n'
const FILE = '/p/s.judge.yaml'
const parse = (extra: string) => parseSpec(BASE + extra, FILE)

t.test('without models: a spec has no jury, and samples is the engine setting', async (t) => {
  const spec = parse('model: jev-2\n')
  t.equal(spec.model, 'jev-2')
  t.equal(spec.jurors, null)
  t.equal(spec.samples, null)
})

t.test('models: names a jury of names or { model, engine } entries, in order', async (t) => {
  const spec = parse('models:\n  - jev-2\n  - { model: claude-x, engine: anthropic }\n  - model: gpt-y\n')
  t.equal(spec.model, null)
  t.same(spec.jurors, [
    { model: 'jev-2', engine: null },
    { model: 'claude-x', engine: 'anthropic' },
    { model: 'gpt-y', engine: null },
  ])
  t.same(parse('models: [a, {model: b, engine: OpenAI}]\n').jurors?.[1], { model: 'b', engine: 'openai' })
})

t.test('the same model on two engines is two jurors', async (t) => {
  const spec = parse('models: [{model: m, engine: openai}, {model: m, engine: anthropic}]\n')
  t.equal(spec.jurors?.length, 2)
})

t.test('samples: is a whole number of answers from 1', async (t) => {
  t.equal(parse('samples: 5\n').samples, 5)
  t.equal(parse('samples: 1\n').samples, 1)
  for (const bad of ['0', '2.5', 'many', '-1']) {
    t.throws(() => parse(`samples: ${bad}\n`), {
      name: 'SpecError',
      message: /^\/p\/s\.judge\.yaml: samples: must be a whole number of answers, 1 or more/,
    })
  }
})

t.test('a bad jury is a spec error naming the file and the key', async (t) => {
  const cases: [string, RegExp][] = [
    ['model: a\nmodels: [b, c]\n', /s\.judge\.yaml: models: cannot be given with model:/],
    ['models: [a]\n', /models: a jury needs two or more models, not 1; for one, write model:/],
    ['models: a\n', /models: must be a list, not the text "a"/],
    ['models: [a, a]\n', /models\[1\]: the model "a" is listed twice/],
    ['models: [{model: a, engine: openai}, {model: a, engine: openai}]\n', /models\[1\]: .*"a" on engine openai/],
    ['models: [a, 3]\n', /models\[1\]: must be a model name or a mapping \{ model, engine \}, not the number 3/],
    ['models: [a, ""]\n', /models\[1\]: must not be empty/],
    ['models: [a, {engine: openai}]\n', /models\[1\]\.model: is required/],
    ['models: [a, {model: b, engine: gpt}]\n', /models\[1\]\.engine: must be one of systemone, simulated, openai/],
    ['models: [a, {model: b, engine: 4}]\n', /models\[1\]\.engine: must be one of .* not the number 4/],
    ['models: [a, {model: b, url: x}]\n', /models\[1\]\.url: unknown key; the known keys are model, engine/],
  ]
  for (const [extra, message] of cases) t.throws(() => parse(extra), { name: 'SpecError', message }, extra)
})
