import t from 'tap'
import { modelsText } from '../../../src/cli/commands/models.ts'
import { cli } from '../../helpers/cli.ts'
import { startOpenAiServer } from '../../helpers/openai-server.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { startSystemOneServer } from '../../helpers/system-one-server.ts'

const KEY = 'sk-models-Secret-1234'

t.test('against System One: the list with aliases marked and the judgment using each model', async (t) => {
  const server = await startSystemOneServer({ expectKey: KEY })
  t.teardown(() => server.close())
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const result = await cli(['models', 'spam.judge.yaml'], { ENGINE_URL: server.url, ENGINE_API_KEY: KEY }, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(result.stdout, /^4 models listed by the engine:\nmodel\s+alias\s+released\s+used by\s+description\n/)
  t.match(result.stdout, /\njev-latest\s+alias\s+2026-09-10\s+The latest iteration/)
  t.match(result.stdout, /\njev-1.13.0\s+spam, \(default\)\s+Jev 1.13.0\n/)
  const json = JSON.parse(
    (await cli(['models', 'spam.judge.yaml', '--json'], { ENGINE_URL: server.url, ENGINE_API_KEY: KEY }, dir)).stdout,
  )
  t.same(
    json.models.map((m: { name: string; alias: boolean }) => [m.name, m.alias]),
    [
      ['jev-latest', true],
      ['jev-preview', true],
      ['jev-1.14.0', false],
      ['jev-1.13.0', false],
    ],
  )
  t.same(json.unlisted, [])
})

t.test('a model in use that the engine does not list is named, with the fix, and exits 1', async (t) => {
  const server = await startSystemOneServer({ models: [{ name: 'jev-latest' }, { name: 'jev-1.14.0' }] })
  t.teardown(() => server.close())
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML.replace('name: spam', 'name: spam\nmodel: jev-1.13.0') })
  const result = await cli(['models', '.', '--node', 'spam'], { ENGINE_URL: server.url, ENGINE_API_KEY: KEY }, dir)
  t.equal(result.code, 1)
  t.match(
    result.stdout,
    /\nnot listed: jev-1.13.0, asked by spam; pin a listed model with model: in the spec of spam\n$/,
  )
  t.equal((await cli(['models', '.', '--node', 'nope'], { ENGINE_URL: server.url, ENGINE_API_KEY: KEY }, dir)).code, 2)
})

t.test('a list of aliases alone cannot rule a build out: the model is named, and the exit status is 0', async (t) => {
  // TypeSafe's own list, as recorded by a public client: the two aliases and no build.
  const server = await startSystemOneServer({ models: [{ name: 'jev-latest' }, { name: 'jev-preview' }] })
  t.teardown(() => server.close())
  const result = await cli(
    ['models', 'spam.judge.yaml'],
    { ENGINE_URL: server.url, ENGINE_API_KEY: KEY },
    t.testdir({ 'spam.judge.yaml': SPAM_YAML }),
  )
  t.equal(result.code, 0)
  t.match(
    result.stdout,
    /\nnot listed: jev-1.13.0, asked by spam \(the engine lists only aliases, so it may still answer\); set ENGINE_MODEL to a listed model\n$/,
  )
})

t.test('against an OpenAI-compatible server: its GET /v1/models, the default model marked', async (t) => {
  const server = await startOpenAiServer({ models: ['qwen2.5-7b-instruct', 'llama3.2:latest'] })
  t.teardown(() => server.close())
  const result = await cli(
    ['models'],
    { ENGINE: 'openai', ENGINE_URL: server.url, ENGINE_MODEL: 'qwen2.5-7b-instruct' },
    t.testdir({}),
  )
  t.equal(result.code, 0, result.stderr)
  t.match(result.stdout, /^2 models listed by the engine:\n/)
  t.match(result.stdout, /\nqwen2.5-7b-instruct\s+2023-11-14\s+\(default\)\n/)
  t.match(result.stdout, /\nllama3.2:latest\s+alias\s+2023-11-14\n/)
})

t.test('without a key, or with two paths, it is a usage error; an unreachable engine fails', async (t) => {
  const dir = t.testdir({})
  const keyless = await cli(['models'], {}, dir)
  t.equal(keyless.code, 2)
  t.match(keyless.stderr, /ENGINE_API_KEY \(or TYPESAFE_API_KEY\) is not set/)
  t.equal((await cli(['models', 'a', 'b'], {}, dir)).code, 2)
  const server = await startSystemOneServer()
  const url = server.url
  await server.close()
  const down = await cli(['models', '--json'], { ENGINE_URL: url, ENGINE_API_KEY: KEY }, dir)
  t.not(down.code, 0)
  t.match(JSON.parse(down.stdout), { error: /could not reach the engine/ })
})

t.test('the text names an unpinned unlisted model as the default one', async (t) => {
  t.equal(
    modelsText({
      default_model: 'x',
      models: [],
      unlisted: [{ model: 'x', used_by: [], pinned_by: [] }],
      lists_builds: true,
    }),
    '0 models listed by the engine:\nmodel  alias  released  used by  description\nnot listed: x, the default model; set ENGINE_MODEL to a listed model\n',
  )
})
