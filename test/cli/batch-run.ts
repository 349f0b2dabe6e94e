import t from 'tap'
import type { Test } from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { cli, ROOT } from '../helpers/cli.ts'
import { openAiEnv, startOpenAiServer, type OpenAiServerOptions } from '../helpers/openai-server.ts'
import { smsCsv, smsMessages } from '../helpers/sms.ts'
import { progressLine } from '../../src/cli/batch-run.ts'

// judge run --batch end to end, against a local server speaking OpenAI's files and batches.

const EXAMPLE = resolve(ROOT, 'examples/sms')
const ROWS = 12
const files = () => ({
  'spam.judge.yaml': readFileSync(resolve(EXAMPLE, 'spam.judge.yaml'), 'utf8'),
  'spam.key.csv': readFileSync(resolve(EXAMPLE, 'spam.key.csv'), 'utf8'),
  'messages.csv': smsCsv(ROWS),
})
const distinct = new Set(
  smsMessages()
    .slice(0, ROWS)
    .map((r) => r.message),
).size
const QUESTIONS = 3

async function setUp(t: Test, options: OpenAiServerOptions = {}) {
  const dir = t.testdir(files())
  const server = await startOpenAiServer(options)
  t.teardown(() => server.close())
  const env = openAiEnv(server, { ENGINE_PRICE_PER_MTOK: '0.2', JUDGE_BATCH_POLL_MS: '1' })
  const chats = () => server.requests.filter((r) => r.path === '/v1/chat/completions').length
  const creates = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches').length
  return { dir, server, env, chats, creates }
}

t.test('a bulk run lands every answer, polls as long as it takes, and a second run asks nothing', async (t) => {
  const { dir, server, env, chats, creates } = await setUp(t, { batch: () => ({ polls: 3 }) })
  const run = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(run.code, 0, run.stderr)
  const [record] = JSON.parse(run.stdout)
  t.match(record, { rows: ROWS, asked: distinct * QUESTIONS, cached: 0, status: 'complete' })
  t.equal(creates(), 1, 'one batch')
  t.equal(chats(), 0, 'nothing asked one request at a time')
  t.ok((run.stderr.match(/batches: /g) ?? []).length >= 3, 'progress at each poll')
  const usage = server.batches.files.get(server.batches.batches[0].outputFileId!)!.text
  const tokens = usage
    .trim()
    .split('\n')
    .reduce((sum, line) => sum + JSON.parse(line).response.body.usage.prompt_tokens, 0)
  t.ok(Math.abs(record.cost - (tokens * 0.1) / 1e6) < 1e-9, 'cost at the batch price, half the per-request price')
  const again = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(again.code, 0, again.stderr)
  t.match(JSON.parse(again.stdout)[0], { asked: 0, cached: distinct * QUESTIONS })
  const batchAgain = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.match(JSON.parse(batchAgain.stdout)[0], { asked: 0, status: 'complete' })
  t.equal(creates(), 1, 'no second batch')
  t.equal(chats(), 0)
})

t.test('judge plan --batch estimates at the batch price', async (t) => {
  const { dir, env } = await setUp(t)
  const plain = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--json'], env, dir)).stdout)[0]
  const batch = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--batch', '--json'], env, dir)).stdout)[0]
  t.ok(plain.estimate > 0)
  t.ok(Math.abs(batch.estimate - plain.estimate / 2) < 1e-12)
})

t.test('the cap is held to the estimate at the batch price', async (t) => {
  const { dir, env, creates } = await setUp(t)
  const plan = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--batch', '--json'], env, dir)).stdout)[0]
  const between = String((plan.estimate * 3) / 2)
  const refused = await cli(
    ['run', 'spam.judge.yaml', '--batch'],
    { ...env, JUDGE_MAX_COST: String(plan.estimate / 2) },
    dir,
  )
  t.equal(refused.code, 2)
  t.equal(creates(), 0)
  const taken = await cli(['run', 'spam.judge.yaml', '--batch'], { ...env, JUDGE_MAX_COST: between }, dir)
  t.equal(taken.code, 0, taken.stderr)
})

t.test('--no-wait submits and exits; the same command again collects', async (t) => {
  const { dir, env, creates } = await setUp(t, { batch: () => ({ polls: 2 }) })
  const first = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait'], env, dir)
  t.equal(first.code, 0, first.stderr)
  t.match(first.stdout, /run the same command again to collect/)
  const listed = await cli(['batches', 'spam.judge.yaml'], env, dir)
  t.equal(listed.code, 0, listed.stderr)
  t.match(listed.stdout, /batch_1/)
  t.match(listed.stdout, /pending/)
  const second = await cli(['run', 'spam.judge.yaml', '--batch', '--no-wait', '--json'], env, dir)
  t.equal(second.code, 0, second.stderr)
  t.equal(creates(), 1, 'the pending batch is not submitted again')
  const third = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(third.code, 0, third.stderr)
  t.match(JSON.parse(third.stdout)[0], { asked: distinct * QUESTIONS, status: 'complete' })
  t.equal(creates(), 1)
  const test = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(test.code === 0 || test.code === 1, true, test.stderr)
})

t.test('failed and expired lines are reported by count and reason, and a later run asks them', async (t) => {
  const { dir, env, chats } = await setUp(t, {
    batch: (i) =>
      i === 0
        ? {
            end: 'expired',
            line: (_id, n) =>
              n === 0 ? { status: 500, message: 'boom' } : n === 1 ? 'answer' : n < 4 ? 'unanswered' : 'answer',
          }
        : {},
  })
  const run = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(run.code, 1, run.stderr)
  t.match(run.stderr, /got no answer \(.*expired/)
  t.match(JSON.parse(run.stdout)[0].status, /^failed: .*unanswered in the batch/)
  const again = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(again.code, 0, again.stderr)
  t.ok(chats() >= 1, 'the unanswered questions are asked by the next run')
  t.match(JSON.parse(again.stdout)[0], { status: 'complete', rows: ROWS })
})

t.test('a batch the provider cancels is recorded so, and its answers land', async (t) => {
  const { dir, env } = await setUp(t, {
    batch: () => ({ end: 'cancelled', line: (_id, n) => (n < 3 ? 'answer' : 'unanswered') }),
  })
  const run = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(run.code, 1, run.stderr)
  t.match(JSON.parse(run.stdout)[0], { asked: 3 })
  const listed = await cli(['batches', 'spam.judge.yaml'], env, dir)
  t.match(listed.stdout, /cancelled/)
})

t.test('an output file whose connection closes midway is read again from its start', async (t) => {
  let cuts = 0
  const isContent = (path: string) => /^\/v1\/files\/[^/]+\/content$/.test(path)
  const { dir, server, env, creates } = await setUp(t, {
    cut: (request) => (isContent(request.path) && cuts++ === 0 ? 2000 : undefined),
  })
  const run = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(run.code, 0, run.stderr)
  const output = server.batches.files.get(server.batches.batches[0].outputFileId!)!.text
  t.ok(output.indexOf('\n') < 2000 && Buffer.byteLength(output) > 2000, 'the cut falls after a whole line')
  t.equal(server.requests.filter((r) => isContent(r.path)).length, 2, 'the file read twice')
  t.match(JSON.parse(run.stdout)[0], { asked: distinct * QUESTIONS, status: 'complete' })
  t.equal(creates(), 1)
  const again = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.match(JSON.parse(again.stdout)[0], { asked: 0, cached: distinct * QUESTIONS })
})

t.test('a poll and a download answered 503 once are tried again', async (t) => {
  const failed = new Set<string>()
  const once = (kind: string) => !failed.has(kind) && failed.add(kind) !== undefined
  const { dir, server, env } = await setUp(t, {
    reply: (request) => {
      const kind = /^\/v1\/batches\/[^/]+$/.test(request.path)
        ? 'poll'
        : /\/content$/.test(request.path)
          ? 'download'
          : null
      if (request.method !== 'GET' || kind === null || !once(kind)) return undefined
      return { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'busy' } } }
    },
  })
  const run = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(run.code, 0, run.stderr)
  t.same([...failed], ['poll', 'download'])
  t.equal(server.requests.filter((r) => r.method === 'GET' && r.path === '/v1/batches/batch_1').length, 2)
  t.match(JSON.parse(run.stdout)[0], { asked: distinct * QUESTIONS, status: 'complete' })
})

t.test('an engine without a batch API refuses --batch', async (t) => {
  const dir = t.testdir(files())
  const run = await cli(['run', 'spam.judge.yaml', '--batch'], { ENGINE: 'simulated' }, dir)
  t.equal(run.code, 2)
  t.match(run.stderr, /the simulated engine has no batch API; run without --batch/)
  const alone = await cli(['run', 'spam.judge.yaml', '--no-wait'], { ENGINE: 'simulated' }, dir)
  t.equal(alone.code, 2)
  t.match(alone.stderr, /--no-wait goes with --batch/)
  const out = await cli(['run', 'spam.judge.yaml', '--batch', '--out', 'o.csv'], { ENGINE: 'simulated' }, dir)
  t.equal(out.code, 2)
  t.match(out.stderr, /--out does not go with --batch/)
  const one = await cli(['run', 'spam.judge.yaml', '--batch'], { ENGINE: 'systemone', ENGINE_API_KEY: 'k' }, dir)
  t.match(one.stderr, /the System One engine has no batch API; run without --batch/)
})

t.test('a progress line sums the batches', async (t) => {
  t.equal(
    progressLine({ batches: 2, ended: 1, total: 10, completed: 4, failed: 1 }),
    'batches: 1 of 2 ended; 4 of 10 requests done, 1 failed',
  )
})

t.test('judge run --batch and judge plan --batch refuse a jury with exit 2, submitting nothing', async (t) => {
  const { dir, env, creates } = await setUp(t)
  const jury = files()
    ['spam.judge.yaml'].replace(/^model:.*$/m, '')
    .replace(/^(name:.*)$/m, '$1\nmodels: [m1, m2]')
  writeFileSync(join(dir, 'spam.judge.yaml'), jury)
  for (const command of ['run', 'plan']) {
    const out = await cli([command, 'spam.judge.yaml', '--batch'], env, dir)
    t.equal(out.code, 2, out.stderr)
    t.match(out.stderr, new RegExp(`names a jury \\(models:\\).*use \`judge ${command}\` without --batch`))
  }
  t.equal(creates(), 0, 'no batch submitted')
})
