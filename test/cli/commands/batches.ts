import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from '../../helpers/cli.ts'
import { openAiEnv, startOpenAiServer } from '../../helpers/openai-server.ts'
import { smsCsv } from '../../helpers/sms.ts'

t.test("judge batches lists the bulk runs' batches and cancels a pending one", async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8'),
    'messages.csv': smsCsv(6),
  })
  const server = await startOpenAiServer({ batch: () => ({ polls: 5 }) })
  t.teardown(() => server.close())
  const env = openAiEnv(server, { JUDGE_BATCH_POLL_MS: '1' })
  const none = await cli(['batches', 'spam.judge.yaml'], env, dir)
  t.equal(none.code, 0, none.stderr)
  t.equal(none.stdout, 'no batches yet\n')
  const submitted = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait', '--json'], env, dir)
  t.equal(submitted.code, 0, submitted.stderr)
  t.match(JSON.parse(submitted.stdout), [{ batchId: 'batch_1', landedAt: null }])
  const listed = await cli(['batches', 'spam.judge.yaml', '--json'], env, dir)
  t.match(JSON.parse(listed.stdout), [{ batchId: 'batch_1', judgment: 'spam', landedAt: null }])
  const cancel = await cli(['batches', 'spam.judge.yaml', '--cancel', 'batch_1', '--json'], env, dir)
  t.equal(cancel.code, 0, cancel.stderr)
  t.match(JSON.parse(cancel.stdout), { batchId: 'batch_1', state: 'cancelling' })
  t.ok(server.requests.some((r) => r.method === 'POST' && r.path === '/v1/batches/batch_1/cancel'))
  const again = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait', '--json'], env, dir)
  t.match(JSON.parse(again.stdout), [{ batchId: 'batch_1', state: 'cancelling' }], 'still pending: not submitted again')
  const collect = await cli(['run', 'spam.judge.yaml', '--batch'], env, dir)
  t.equal(collect.code, 1, 'a cancelled batch leaves its questions unanswered')
  const table = await cli(['batches', 'spam.judge.yaml'], env, dir)
  t.match(table.stdout, /batch_1\s+spam\s+cancelled\s+0\/\d+\s+\d+\s+landed/)
  const unknown = await cli(['batches', 'spam.judge.yaml', '--cancel', 'batch_9'], env, dir)
  t.equal(unknown.code, 2)
  t.match(unknown.stderr, /no batch batch_9/)
})

t.test('judge batches --cancel says the state the provider gave', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8'),
    'messages.csv': smsCsv(2),
  })
  const server = await startOpenAiServer({ batch: () => ({ polls: 5 }) })
  t.teardown(() => server.close())
  const env = openAiEnv(server)
  t.equal((await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait'], env, dir)).code, 0)
  const cancel = await cli(['batches', 'spam.judge.yaml', '--cancel', 'batch_1'], env, dir)
  t.equal(cancel.code, 0, cancel.stderr)
  t.equal(cancel.stdout, 'batch batch_1: cancelling\n')
})
