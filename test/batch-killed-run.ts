import t from 'tap'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { childEnv, cli, ROOT, startCli } from './helpers/cli.ts'
import { openAiEnv, startOpenAiServer } from './helpers/openai-server.ts'
import { smsCsv, smsMessages } from './helpers/sms.ts'
import type { ReceivedRequest } from './helpers/system-one-server.ts'

// A `judge run --batch` killed with -9 at each step, then run again: each question is asked in at
// most one batch, and every answer is stored once.

const ROWS = 10
const distinct = new Set(
  smsMessages()
    .slice(0, ROWS)
    .map((r) => r.message),
).size

const STEPS: Record<string, (r: ReceivedRequest) => boolean> = {
  'before the upload': (r) => r.method === 'POST' && r.path === '/v1/files',
  'between the upload and the create': (r) => r.method === 'POST' && r.path === '/v1/batches',
  'while waiting': (r) => r.method === 'GET' && /^\/v1\/batches\/batch_1$/.test(r.path),
  'while landing': (r) => r.method === 'GET' && /\/content$/.test(r.path),
}

for (const [step, at] of Object.entries(STEPS)) {
  t.test(`killed ${step}, run again: one batch, every answer stored once`, async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8'),
      'messages.csv': smsCsv(ROWS),
    })
    let victim: ChildProcess | null = null
    const server = await startOpenAiServer({
      batch: () => ({ polls: 2 }),
      reply: (request) => {
        if (victim !== null && at(request)) {
          victim.kill('SIGKILL')
          victim = null
        }
        return undefined
      },
    })
    t.teardown(() => server.close())
    const env = openAiEnv(server, { JUDGE_BATCH_POLL_MS: '1' })
    const child = startCli(['run', 'spam.judge.yaml', '--batch'], childEnv(env), dir)
    victim = child
    const [, signal] = await new Promise<[number | null, string | null]>((done) =>
      child.on('close', (code, signal) => done([code, signal])),
    )
    t.equal(signal, 'SIGKILL', 'killed at the step')
    const listed = await cli(['batches', 'spam.judge.yaml'], env, dir)
    t.match(listed.stdout, /pending/, 'the batch is recorded pending')
    const again = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
    t.equal(again.code, 0, again.stderr)
    t.match(JSON.parse(again.stdout)[0], { rows: ROWS, status: 'complete' })
    const creates = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches')
    t.equal(creates.length, 1, 'no second batch for the same questions')
    const answers = await cli(['cache', 'spam.judge.yaml', '--json'], env, dir)
    t.match(answers.stdout, new RegExp(`"answers": ${distinct}\\b`), 'every answer stored once')
  })
}
