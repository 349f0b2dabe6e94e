import t from 'tap'
import type { Test } from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from '../helpers/cli.ts'
import { openAiEnv, startOpenAiServer, type OpenAiServerOptions } from '../helpers/openai-server.ts'
import { smsCsv } from '../helpers/sms.ts'
import { runningText } from '../../src/cli/running-text.ts'

// judge runs lists a run whose batches are pending at the provider as running, end to end.

const EXAMPLE = resolve(ROOT, 'examples/sms')

async function setUp(t: Test, options: OpenAiServerOptions) {
  const dir = t.testdir({
    'spam.judge.yaml': readFileSync(resolve(EXAMPLE, 'spam.judge.yaml'), 'utf8'),
    'messages.csv': smsCsv(12),
  })
  const server = await startOpenAiServer(options)
  t.teardown(() => server.close())
  const env = openAiEnv(server, { ENGINE_PRICE_PER_MTOK: '0.2', JUDGE_BATCH_POLL_MS: '1' })
  const lines = () => server.batches.files.get(server.batches.batches[0].inputFileId)!.text.trim().split('\n').length
  return { dir, env, lines }
}

t.test(
  'a submitted batch is running with the lines it sent until the provider counts them; then its run',
  async (t) => {
    const { dir, env, lines } = await setUp(t, { batch: () => ({ polls: 2 }) })
    const submitted = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait'], env, dir)
    t.equal(submitted.code, 0, submitted.stderr)
    const listed = await cli(['runs', 'spam.judge.yaml'], env, dir)
    t.equal(listed.code, 0, listed.stderr)
    t.match(listed.stdout, /^running through the bulk lane/)
    const [, runId] = listed.stdout.match(/\n(\S+)\s+spam\s+running\s+batch_1\s+validating\s+0\/(\d+)\s+0\s+\$/) ?? []
    t.ok(runId, listed.stdout)
    t.match(listed.stdout, new RegExp(`running\\s+batch_1\\s+validating\\s+0/${lines()}\\s+0\\s`))
    t.notMatch(listed.stdout, /no runs yet/)
    const json = await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)
    t.same(JSON.parse(json.stdout), [], '--json keeps the recorded runs, as GET /v1/runs')
    const collected = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
    t.equal(collected.code, 0, collected.stderr)
    t.equal(JSON.parse(collected.stdout)[0].run_id, runId, 'the run is recorded under the id it was running as')
    const after = await cli(['runs', 'spam.judge.yaml'], env, dir)
    t.notMatch(after.stdout, /running/)
    t.match(after.stdout, new RegExp(`${runId}\\s+spam\\s+run\\s.*complete\\n`))
  },
)

t.test("a batch the provider has ended but judge has not collected shows the provider's counts", async (t) => {
  const { dir, env, lines } = await setUp(t, {
    batch: () => ({ polls: 0, line: (_id, n) => (n === 0 ? { status: 500, message: 'boom' } : 'answer') }),
  })
  const submitted = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait'], env, dir)
  t.equal(submitted.code, 0, submitted.stderr)
  const listed = await cli(['runs', 'spam.judge.yaml'], env, dir)
  t.match(listed.stdout, new RegExp(`running\\s+batch_1\\s+completed\\s+${lines() - 1}/${lines()}\\s+1\\s`))
})

t.test('no pending batch, no lines', async (t) => {
  t.equal(runningText([]), '')
})
