import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { openAiEnv, startOpenAiServer } from './helpers/openai-server.ts'
import { smsCsv, smsMessages } from './helpers/sms.ts'

// ENGINE=openai has no default model: without ENGINE_MODEL, specs naming their model (model:, or a jury's models:)
// are judged as ever, and a spec naming none is refused, naming it, rather than asked of some other model.

const SPAM = readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8')
const QUESTIONS = SPAM.slice(SPAM.indexOf('state:')).replace(/^key: .*\n/m, '')
const files = () => ({
  'pinned.judge.yaml': `name: pinned\nmodel: qwen2.5-7b-instruct\n${QUESTIONS}`,
  'jury.judge.yaml': `name: jury\nmodels: [qwen2.5-7b-instruct, llama3.2]\n${QUESTIONS}`,
  'bare.judge.yaml': `name: bare\n${QUESTIONS}`,
  'messages.csv': smsCsv(5),
})
const REFUSED = /bare names no model, and ENGINE_MODEL is unset \(this engine has no default model\): set ENGINE_MODEL/

/** The environment of ENGINE=openai asking `server`, without ENGINE_MODEL. */
function envOf(server: { url: string }): Record<string, string> {
  const { ENGINE_MODEL: _, ...env } = openAiEnv(server)
  return env
}

t.test('judge plan and run: a spec naming its model and a jury run; a spec naming none exits 2', async (t) => {
  const dir = t.testdir(files())
  const server = await startOpenAiServer({ models: ['qwen2.5-7b-instruct', 'llama3.2'] })
  t.teardown(() => server.close())
  const env = envOf(server)
  for (const spec of ['pinned', 'jury']) {
    const plan = await cli(['plan', `${spec}.judge.yaml`, '--json'], env, dir)
    t.equal(plan.code, 0, plan.stderr)
    const run = await cli(['run', `${spec}.judge.yaml`, '--json'], env, dir)
    t.equal(run.code, 0, run.stderr)
    t.match(JSON.parse(run.stdout)[0], { judgment: spec, status: 'complete' })
  }
  t.match(JSON.parse((await cli(['run', 'pinned.judge.yaml', '--json'], env, dir)).stdout)[0], {
    model: 'qwen2.5-7b-instruct',
  })
  const models = new Set(server.answered.map((r) => r.body.model))
  t.same([...models].sort(), ['llama3.2', 'qwen2.5-7b-instruct'], 'only the models the specs name were asked')
  const asked = server.requests.length
  for (const command of ['plan', 'run']) {
    const refused = await cli([command, 'bare.judge.yaml'], env, dir)
    t.equal(refused.code, 2, `${command}: a usage error`)
    t.match(refused.stderr, REFUSED)
  }
  t.equal(server.requests.length, asked, 'nothing asked for the spec naming no model')
  const doctor = await cli(['doctor', 'bare.judge.yaml'], env, dir)
  t.equal(doctor.code, 1, 'the doctor reports, and does not fail')
  t.match(doctor.stdout, /ENGINE_MODEL is unset and ENGINE=openai has no default model, and no model is named by bare/)
})

t.test('the server judges specs naming their model and refuses one naming none with its usual reply', async (t) => {
  const dir = t.testdir(files())
  const engine = await startOpenAiServer()
  t.teardown(() => engine.close())
  const server = await startJudgeServer(t, dir, envOf(engine))
  const row = { message: smsMessages()[0].message }
  const pinned = await server.post('/v1/judge', { path: 'pinned.judge.yaml', row })
  t.equal(pinned.status, 200, pinned.text)
  const jury = await server.post('/v1/judge', { path: 'jury.judge.yaml', row })
  t.equal(jury.status, 200, jury.text)
  t.same([...new Set(engine.answered.map((r) => r.body.model))].sort(), ['llama3.2', 'qwen2.5-7b-instruct'])
  const asked = engine.requests.length
  const bare = await server.post('/v1/judge', { path: 'bare.judge.yaml', row })
  t.equal(bare.status, 400, bare.text)
  t.match(bare.text, REFUSED)
  t.equal(engine.requests.length, asked, 'nothing asked')
})
