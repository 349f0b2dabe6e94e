import t, { type Test } from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { reask } from '../../helpers/contracts/reask-store.ts'
import { stringify } from 'csv-stringify/sync'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'
import { cli } from '../../helpers/cli.ts'
import { smsMessages } from '../../helpers/sms.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { startSystemOneServer, type SystemOneServerOptions } from '../../helpers/system-one-server.ts'

const ROWS = stringify([
  ['message'],
  ...[...new Set(smsMessages().map((r) => r.message))].slice(0, 120).map((m) => [m]),
])
const QUESTIONS = ['is_spam', 'topic', 'urgency']

async function judged(t: Test, env: Record<string, string>) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': ROWS })
  const run = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], env, dir)
  t.equal(run.code, 0, run.stderr)
  return dir
}

async function localEngine(t: Test, options: SystemOneServerOptions = {}) {
  const engine = await startSystemOneServer({ expectKey: 'k', ...options })
  t.teardown(() => engine.close())
  return { engine, env: { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' } }
}

t.test(
  'against the stable simulated engine every flip rate, jitter and route flip is 0, and the cache is left as it was',
  async (t) => {
    const env = { ENGINE: 'simulated' }
    const dir = await judged(t, env)
    const cacheBefore = (await cli(['cache', 'spam.judge.yaml', '--json'], env, dir)).stdout
    const result = await cli(['stability', 'spam.judge.yaml', '--sample', '40', '--json'], env, dir)
    t.equal(result.code, 0, result.stderr)
    const { spam } = JSON.parse(result.stdout)
    t.match(spam, { states: Number, skipped: 0, requests: Number, checked_at: String })
    t.ok(spam.states >= 40 && spam.states <= 120, `${spam.states} states asked again`)
    for (const q of QUESTIONS) {
      t.equal(spam.questions[q].flip_rate.point, 0, `${q}: no label flips`)
      t.equal(spam.questions[q].p_jitter.point, 0, `${q}: no jitter`)
      t.ok(
        spam.questions[q].flip_rate.interval[1] > 0 && spam.questions[q].flip_rate.interval[1] < 0.1,
        `${q}: an upper end above 0`,
      )
      t.equal(spam.questions[q].reasked, 40)
    }
    t.equal(spam.questions.is_spam.route_flip_rate.point, 0)
    t.equal(spam.questions.topic.route_flip_rate, null, 'no act rules for topic')
    t.match(spam.questions.is_spam.near_threshold, { thresholds: [0.95], within: 0, count: 0, answers: 120 })
    t.equal(
      (await cli(['cache', 'spam.judge.yaml', '--json'], env, dir)).stdout,
      cacheBefore,
      'no cached answer added or replaced',
    )
  },
)

t.test(
  'against the local engine without noise the flip rate is 0; every drawn state is asked again, past the cache',
  async (t) => {
    const { engine, env } = await localEngine(t)
    const dir = await judged(t, env)
    const before = engine.requests.length
    const result = await cli(['stability', 'spam.judge.yaml', '--sample', '30', '--node', 'spam', '--json'], env, dir)
    t.equal(result.code, 0, result.stderr)
    const { spam } = JSON.parse(result.stdout)
    t.equal(engine.requests.length - before, spam.states, 'one request per state drawn, though each is cached')
    for (const q of QUESTIONS) t.equal(spam.questions[q].flip_rate.point, 0)
    const plan = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], env, dir)).stdout)
    t.match(plan[0], { cached: 360, ask: 0 }, 'the answers cached stand')
  },
)

t.test('against a noisy local engine labels flip, and the text report says how much and where', async (t) => {
  const { env } = await localEngine(t, { noise: { share: 0.5, flip: 0.3, random: seededRandom(38) } })
  const dir = await judged(t, env)
  const json = await cli(['stability', 'spam.judge.yaml', '--sample', '60', '--json'], env, dir)
  const { spam } = JSON.parse(json.stdout)
  t.ok(spam.questions.is_spam.flip_rate.point > 0, `is_spam flips ${spam.questions.is_spam.flip_rate.point}`)
  t.ok(spam.questions.is_spam.p_jitter.point > 0)
  const text = await cli(['stability', 'spam.judge.yaml', '--sample', '60'], env, dir)
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /^spam: \d+ states asked again in \d+ requests, cost \$[\d.]+, model jev-[\d.]+\n/)
  t.match(
    text.stdout,
    /\n  is_spam: flip rate \d+\.\d% \(95% \d+\.\d% to \d+\.\d%\); p jitter 0\.\d{3} \(95% 0\.\d{3} to 0\.\d{3}\); \d+ of \d+ unsure flipped, \d+ of \d+ confident flipped\n    route flips \d+\.\d% \(95% [\d.]+% to [\d.]+%\)\n    \d+ of 120 stored answers \(\d+\.\d%\) have p within 0\.\d{3}, the mean p jitter, of a p threshold \(0\.95\): noise of that size could move their route\n/,
  )
  t.match(text.stdout, /\n  topic: flip rate /)
})

t.test(
  'a check above JUDGE_MAX_COST asks nothing and exits 2; without a key it exits 2 naming the judgment',
  async (t) => {
    const { engine, env } = await localEngine(t)
    const dir = await judged(t, env)
    const before = engine.requests.length
    const over = await cli(['stability', 'spam.judge.yaml', '--json'], { ...env, JUDGE_MAX_COST: '0.0000001' }, dir)
    t.equal(over.code, 2)
    t.match(
      over.stderr,
      /judge stability: judgment spam: asking \d+ answers in \d+ requests would cost an estimated \$[\d.]+, above the cap of \$0\.0000001; nothing was asked/,
    )
    t.equal(engine.requests.length, before, 'nothing was asked')
    const keyless = await cli(['stability', 'spam.judge.yaml'], { ENGINE_URL: engine.url }, dir)
    t.equal(keyless.code, 2)
    t.match(keyless.stderr, /spam/)
  },
)

t.test('a store without answers has nothing to ask again; a bad --sample is a usage error', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const none = await cli(['stability', 'spam.judge.yaml'], { ENGINE: 'simulated' }, dir)
  t.equal(none.code, 0, none.stderr)
  t.equal(
    none.stdout,
    'spam: 0 states asked again in 0 requests, would cost $0.00 on System One (simulated: nothing spent), model simulated-1\n  is_spam: no stored answers to ask again\n  topic: no stored answers to ask again\n  urgency: no stored answers to ask again\n',
  )
  t.match(await cli(['stability', 'spam.judge.yaml', '--sample', '0'], {}, dir), {
    code: 2,
    stderr: /--sample must be a whole number of 1 or more, not "0"/,
  })
  t.match(await cli(['stability', '--help'], {}, dir), {
    code: 0,
    stdout: /^usage: judge stability <spec-or-folder> \[--sample N\]/,
  })
})

t.test(
  "after a check, judge run says when a question's labels flip more often than its error rate's interval allows",
  async (t) => {
    const yaml = SPAM_YAML.replace('name: spam\n', 'name: spam\nkey: spam.key.csv\nkey_sample: random\n')
    const dir = t.testdir({ 'spam.judge.yaml': yaml, 'rows.csv': ROWS })
    const env = { ENGINE: 'simulated' }
    const first = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--out', 'out.jsonl', '--json'], env, dir)
    const [{ model }] = JSON.parse(first.stdout)
    const rows = readFileSync(join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    writeFileSync(
      join(dir, 'spam.key.csv'),
      stringify([['message', 'is_spam'], ...rows.map((r) => [r.message, r.is_spam ?? r.answers?.is_spam?.label])]),
    )
    const quiet = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], env, dir)
    t.notMatch(quiet.stdout, /noise/, 'no check, no word of noise')
    const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
    const fingerprint = parseSpec(yaml, join(dir, 'spam.judge.yaml')).questions[0].fingerprint
    store.addReasks(
      Array.from({ length: 40 }, (_, i) =>
        reask({ model, fingerprint, stateHash: `s${i}`, stratumSize: 120, label: i % 2 === 0 ? 'no' : 'yes' }),
      ),
    )
    store.close()
    const warned = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], env, dir)
    t.equal(warned.code, 0, warned.stderr)
    t.match(
      warned.stdout,
      /\nspam\.is_spam: labels flip on 50\.0% \(95% [\d.]+% to [\d.]+%\) of answers asked again \(judge stability, [\d-]+T[\d:.]+\), above the error rate's interval \(0\.0% to [\d.]+%\): the engine's noise is the larger part of the error\n$/,
    )
  },
)
