import t from 'tap'
import { createHash } from 'node:crypto'
import { cli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { promptLabels, simulatedTop, startOpenAiServer } from './helpers/openai-server.ts'
import { smsCsv } from './helpers/sms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

// "This question does not fit its rows", end to end: the option mass an engine gives each answer is
// kept, and a run whose median mass of a question is below min_fit names it in `judge run`, `judge
// plan`, the run page, its JSON twin and /accuracy, with the rows of lowest mass.

const files = () => ({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(40) })
const KEY = 'sk-fit-Secret-1357'

/** A stable mass in [low, low + 0.1) for a request, so that rows differ and the lowest can be named. */
function mass(low: number, seed: string): number {
  return Math.round((low + createHash('sha256').update(seed).digest()[0] / 2560) * 100) / 100
}

t.test(
  'System One giving topic little option mass: judge run, plan, the run page, its JSON and /accuracy name topic',
  async (t) => {
    const dir = t.testdir(files())
    const engine = await startSystemOneServer({
      optionMass: (name, body) => mass(name === 'topic' ? 0.05 : 0.9, JSON.stringify(body.state)),
    })
    t.teardown(() => engine.close())
    const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY }
    const run = await cli(['run', 'spam.judge.yaml'], env, dir)
    t.equal(run.code, 0, run.stderr)
    t.match(
      run.stdout,
      /\n  question topic does not fit its rows: median option mass 0\.\d+ is below min_fit 0\.5 \(10th percentile 0\.\d+; \d+ of \d+ answers with a mass\)/,
    )
    t.match(
      run.stdout,
      /Rows of lowest mass:\n    0\.0\d  \{"message":".+\n    0\.\d\d  \{"message":".+\n    0\.\d\d  \{"message":/,
    )
    t.notMatch(run.stdout, /question (is_spam|urgency) does not fit/, 'the questions that fit are not named')
    const plan = await cli(['plan', 'spam.judge.yaml'], env, dir)
    t.match(plan.stdout, /\nspam: its last run \(\S+\) found:\n  question topic does not fit its rows/)
    const [record] = JSON.parse((await cli(['run', 'spam.judge.yaml', '--json'], env, dir)).stdout)
    t.match(
      record.fit,
      { topic: { fits: false, min_fit: 0.5 }, is_spam: { fits: true }, urgency: { fits: true } },
      'a second run, all from the store, knows the masses too',
    )

    const server = await startJudgeServer(t, dir, env)
    const page = await server.get(`/runs/${record.run_id}?path=spam.judge.yaml`)
    t.equal(page.status, 200)
    t.match(
      page.text,
      /Question <code>topic<\/code> does not fit its rows: its median option mass is 0\.\d\d, below min_fit 0\.5/,
    )
    t.notMatch(page.text, /Question <code>is_spam<\/code> does not fit/)
    t.match(
      page.text,
      /<li><strong>0\.0\d<\/strong> <span class="muted">message<\/span> .+ <a href="\/review\?path=spam.judge.yaml&amp;node=spam&amp;question=topic&amp;row=[0-9a-f]{16}">review<\/a><\/li>/,
    )
    const json = await server.get(`/v1/runs/${record.run_id}?path=spam.judge.yaml`)
    t.match(json.body.run.fit.topic, {
      fits: false,
      lowest: [{ state_hash: /^[0-9a-f]{16}$/, option_mass: Number, state: { message: String } }],
    })
    const accuracy = await server.get('/accuracy?path=spam.judge.yaml')
    t.match(accuracy.text, /Question <code>topic<\/code> does not fit its rows/)
    t.match((await server.get('/v1/pages/accuracy?path=spam.judge.yaml')).body.fit, {
      judgment: 'spam',
      run_id: record.run_id,
      fit: { topic: { fits: false } },
    })
  },
)

t.test('normal option mass gives no warning, and an engine that gives none leaves the fit unknown', async (t) => {
  for (const optionMass of [() => 0.93, undefined]) {
    const dir = t.testdir(files())
    const engine = await startSystemOneServer({ optionMass })
    t.teardown(() => engine.close())
    const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY }
    const run = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    const [record] = JSON.parse(run.stdout)
    t.same(
      Object.values<{ fits: boolean | null }>(record.fit).map((q) => q.fits),
      optionMass ? [true, true, true] : [null, null, null],
    )
    t.notMatch((await cli(['run', 'spam.judge.yaml'], env, dir)).stdout, /does not fit/)
    const server = await startJudgeServer(t, dir, env)
    t.notMatch((await server.get(`/runs/${record.run_id}?path=spam.judge.yaml`)).text, /does not fit its rows/)
  }
})

t.test(
  'an OpenAI-compatible model whose top tokens for topic are mostly not its labels gets the same warning',
  async (t) => {
    const dir = t.testdir(files())
    // For topic, the model would rather start a sentence: the labels share what little is left.
    const top = (labels: readonly string[], seed: string) =>
      labels.includes('promotion')
        ? [
            { token: 'The', logprob: Math.log(0.6) },
            { token: 'This', logprob: Math.log(0.25) },
            ...simulatedTop(labels, seed).map((x) => ({ ...x, logprob: x.logprob + Math.log(0.15) })),
          ]
        : simulatedTop(labels, seed)
    const engine = await startOpenAiServer({ top })
    t.teardown(() => engine.close())
    const env = { ENGINE: 'openai', ENGINE_URL: engine.url, ENGINE_MODEL: 'qwen2.5-7b-instruct' }
    const run = await cli(['run', 'spam.judge.yaml'], env, dir)
    t.equal(run.code, 0, run.stderr)
    t.match(run.stdout, /\n  question topic does not fit its rows: median option mass 0\.1\d* is below min_fit 0\.5/)
    t.notMatch(run.stdout, /question (is_spam|urgency) does not fit/)
    t.ok(
      promptLabels(engine.answered[0].body.messages[1].content).length > 0,
      'the server read the labels from the prompt',
    )
  },
)

t.test('min_fit in the spec moves the threshold', async (t) => {
  const dir = t.testdir({ ...files(), 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\nmin_fit: 0.01\n' })
  const engine = await startSystemOneServer({
    optionMass: (name, body) => mass(name === 'topic' ? 0.05 : 0.9, JSON.stringify(body.state)),
  })
  t.teardown(() => engine.close())
  const [record] = JSON.parse(
    (await cli(['run', 'spam.judge.yaml', '--json'], { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY }, dir)).stdout,
  )
  t.match(record.fit.topic, { fits: true, min_fit: 0.01 })
})
