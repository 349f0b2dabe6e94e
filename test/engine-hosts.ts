import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from './helpers/cli.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

// The hosts docs/engine.md documents, each stood in for by a local server at the host's path: the
// settings given there reach System One at the right path, with the right key and model.

const ENGINE_DOC = readFileSync(resolve(ROOT, 'docs/engine.md'), 'utf8')
const rows = () => ({
  'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n',
  'messages.csv': 'message\nWIN a FREE cruise! Reply YES\nSee you at lunch\n',
})

t.test(
  "TypeSafe directly, with the names TypeSafe's SDKs read: /v1/systemone with the key as a bearer token",
  async (t) => {
    const server = await startSystemOneServer({ expectKey: 'ts-key-0123456789' })
    t.teardown(() => server.close())
    const dir = t.testdir(rows())
    const env = {
      TYPESAFE_BASE_URL: server.url,
      TYPESAFE_API_KEY: 'ts-key-0123456789',
      TYPESAFE_DEFAULT_MODEL: 'jev-1.14.0',
    }
    const run = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(run.code, 0, run.stderr)
    t.match(JSON.parse(run.stdout)[0], { model: 'jev-1.14.0', asked: 6 })
    t.match(server.answered[0], {
      path: '/v1/systemone',
      headers: { authorization: 'Bearer ts-key-0123456789' },
      body: { model: 'jev-1.14.0' },
    })
    t.equal((await cli(['doctor', 'spam.judge.yaml'], env, dir)).code, 0)
    t.match(ENGINE_DOC, /ENGINE_API_KEY=<your TypeSafe key>\s+# or TYPESAFE_API_KEY/)
  },
)

t.test("ngrok's AI gateway: the same /v1/systemone path at its root, with the gateway's access key", async (t) => {
  const server = await startSystemOneServer({ expectKey: 'ng-abcde-g1-fghij' })
  t.teardown(() => server.close())
  const dir = t.testdir(rows())
  const env = { ENGINE_URL: server.url, ENGINE_API_KEY: 'ng-abcde-g1-fghij', ENGINE_MODEL: 'jev-latest' }
  t.equal((await cli(['run', 'spam.judge.yaml'], env, dir)).code, 0)
  t.match(server.answered[0], {
    path: '/v1/systemone',
    headers: { authorization: 'Bearer ng-abcde-g1-fghij' },
    body: { model: 'jev-latest' },
  })
  t.same(
    Object.keys(server.answered[0].body),
    ['model', 'state', 'questions'],
    'only the three fields the gateway forwards',
  )
  t.match(ENGINE_DOC, /ENGINE_URL=https:\/\/gateway\.ngrok\.ai\n/)
})

t.test(
  "Databricks' Unity Gateway: the workspace's /ai-gateway/typesafe root, a workspace token, a fully qualified model",
  async (t) => {
    const server = await startSystemOneServer({
      basePath: '/ai-gateway/typesafe',
      expectKey: 'dapi0123456789abcdef',
      models: [{ name: 'system.ai.openjev-qwen35-4b' }],
    })
    t.teardown(() => server.close())
    const dir = t.testdir(rows())
    const env = {
      ENGINE_URL: `${server.url}/ai-gateway/typesafe/`,
      ENGINE_API_KEY: 'dapi0123456789abcdef',
      ENGINE_MODEL: 'system.ai.openjev-qwen35-4b',
    }
    const run = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(run.code, 0, run.stderr)
    t.match(
      JSON.parse(run.stdout)[0],
      { model: 'system.ai.openjev-qwen35-4b', reported_model: 'system.ai.openjev-qwen35-4b' },
      "the answers are cached under the service's full name",
    )
    t.match(server.answered[0], {
      path: '/ai-gateway/typesafe/v1/systemone',
      headers: { authorization: 'Bearer dapi0123456789abcdef' },
      body: { model: 'system.ai.openjev-qwen35-4b' },
    })
    const doctor = await cli(['doctor', 'spam.judge.yaml'], env, dir)
    t.equal(doctor.code, 0, doctor.stdout)
    t.match(doctor.stdout, /model system.ai.openjev-qwen35-4b, asked by spam, is listed/)
    t.match(ENGINE_DOC, /ENGINE_URL=https:\/\/<workspace-url>\/ai-gateway\/typesafe\n/)
    t.match(ENGINE_DOC, /ENGINE_MODEL=system\.ai\.openjev-qwen35-4b /)
  },
)
