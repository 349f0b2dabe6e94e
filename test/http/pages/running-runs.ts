import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from '../../helpers/cli.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { openAiEnv, startOpenAiServer } from '../../helpers/openai-server.ts'
import { openapiAjv, problems, responsePointer, validatorAt } from '../../helpers/openapi.ts'
import { smsCsv } from '../../helpers/sms.ts'
import { runningTable } from '../../../src/http/pages/running-runs.ts'

// The runs page shows a run whose batches are pending at the provider as running, end to end:
// submitted by `judge run --batch --no-wait` against a local server speaking OpenAI's batches.

t.test('/runs shows a pending batch as running with its counts, then the run that collected it', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8'),
    'messages.csv': smsCsv(12),
  })
  const engine = await startOpenAiServer({ batch: () => ({ polls: 2 }) })
  t.teardown(() => engine.close())
  const env = openAiEnv(engine, { ENGINE_PRICE_PER_MTOK: '0.2', JUDGE_BATCH_POLL_MS: '1' })
  const submitted = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait'], env, dir)
  t.equal(submitted.code, 0, submitted.stderr)
  const lines = engine.batches.files.get(engine.batches.batches[0].inputFileId)!.text.trim().split('\n').length
  const server = await startJudgeServer(t, dir)
  const page = await server.get('/runs?path=spam.judge.yaml')
  t.equal(page.status, 200)
  t.match(page.text, /Running through the bulk lane/)
  t.match(page.text, /data-label="status">running</)
  t.match(page.text, /<code>batch_1<\/code> validating/)
  t.match(page.text, new RegExp(`data-label="requests done">0 of ${lines}<`))
  const twin = await server.get('/v1/pages/runs?path=spam.judge.yaml')
  const [running] = twin.body.running
  t.match(running, { status: 'running', batches: ['batch_1'], states: ['validating'], total: lines, completed: 0 })
  const validate = validatorAt(openapiAjv(), responsePointer('GET', '/v1/pages/runs', 200))
  t.same(problems(validate, twin.body), [])
  t.same((await server.get('/v1/runs?path=spam.judge.yaml')).body, [], 'GET /v1/runs lists recorded runs only')
  const collected = await cli(['run', 'spam.judge.yaml', '--batch'], env, dir)
  t.equal(collected.code, 0, collected.stderr)
  const after = await server.get('/runs?path=spam.judge.yaml')
  t.notMatch(after.text, /Running through the bulk lane/)
  t.match(after.text, new RegExp(`<code>${running.run_id}</code></a>`))
  t.match(after.text, /data-label="status">complete</)
  t.same((await server.get('/v1/pages/runs?path=spam.judge.yaml')).body.running, [])
})

t.test('no running runs, no section', async (t) => {
  t.equal(runningTable([]).toString(), '')
})
