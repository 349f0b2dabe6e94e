import t from 'tap'
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EngineError } from '../../../src/errors.ts'
import type { EngineRequest } from '../../../src/ports/engine.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { startJudgeServer, type JudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms } from '../../helpers/review-forms.ts'
import { reviewProject } from '../../helpers/review-project.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { NO_PROMTOOL, promtoolCheck, valueOf } from '../../helpers/metrics.ts'

const judge = (server: JudgeServer, message: string, extra: Record<string, unknown> = {}) =>
  server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message }, ...extra })
const said = (request: EngineRequest, word: string) => JSON.stringify(request.state).includes(word)

t.test(
  'GET /metrics counts requests by route pattern, answers by source, engine requests, failures and retries, and shadow judgments, and promtool passes it',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, cand: { 'spam.judge.yaml': SPAM_YAML } })
    const flaky = new Set<string>()
    const engine = createFakeEngine({
      fail: (request) => {
        if (said(request, 'boom')) return new EngineError('engine answered 400: no', 400)
        if (said(request, 'flaky') && !flaky.has('once'))
          return (
            flaky.add('once'), new EngineError('engine answered 500: busy', 500, { transient: true, retryAfterMs: 10 })
          )
        return undefined
      },
    })
    const server = await startJudgeServer(t, dir, { ENGINE_PRICE_PER_MTOK: '1' }, { engine })
    t.equal((await judge(server, 'hello')).status, 200)
    t.equal((await judge(server, 'hello')).status, 200, 'from the store, on the fast path')
    t.equal((await judge(server, 'hello')).status, 200, 'a kept reply')
    t.equal((await judge(server, 'flaky')).status, 200, 'asked again after a 500')
    t.equal((await judge(server, 'boom')).status, 502)
    t.equal((await judge(server, 'shadowed', { shadow: 'cand/spam.judge.yaml' })).status, 200)
    t.equal((await server.get('/runs/a-run-id?path=spam.judge.yaml&token=secret-in-query')).status, 404)
    t.equal((await server.get('/no/such/thing')).status, 404)
    await server.running.handler.idle(5000)
    const scrape = await server.get('/metrics')
    t.equal(scrape.status, 200)
    t.match(scrape.headers.get('content-type'), 'text/plain; version=0.0.4')
    const text = scrape.text
    t.equal(valueOf(text, 'judge_http_requests_total{method="POST",route="/v1/judge",status="200"}'), 5)
    t.equal(valueOf(text, 'judge_http_requests_total{method="POST",route="/v1/judge",status="502"}'), 1)
    t.equal(
      valueOf(text, 'judge_http_requests_total{method="GET",route="/runs/{run_id}",status="404"}'),
      1,
      'the route pattern, not the URL',
    )
    t.equal(valueOf(text, 'judge_http_requests_total{method="GET",route="none",status="404"}'), 1)
    t.notMatch(text, /a-run-id|secret-in-query|no\/such/, 'nothing of a URL as sent')
    t.equal(valueOf(text, 'judge_http_request_duration_seconds_count{route="/v1/judge"}'), 6)
    t.equal(valueOf(text, 'judge_answers_total{judgment="spam",question="is_spam",source="engine"}'), 3)
    t.equal(valueOf(text, 'judge_answers_total{judgment="spam",question="is_spam",source="store"}'), 2)
    t.equal(
      valueOf(text, 'judge_engine_requests_total{status="200"}'),
      3,
      'hello, flaky and shadowed (the candidate, the same questions, finds them stored)',
    )
    t.equal(valueOf(text, 'judge_engine_requests_total{status="500"}'), 1)
    t.equal(valueOf(text, 'judge_engine_requests_total{status="400"}'), 1)
    t.equal(valueOf(text, 'judge_engine_retries_total'), 1)
    t.ok(valueOf(text, 'judge_engine_cost_usd_total') > 0)
    t.equal(valueOf(text, 'judge_engine_simulated_cost_usd_total'), 0, "a real engine's spend is not simulated")
    t.equal(valueOf(text, 'judge_engine_request_duration_seconds_count'), 5)
    t.equal(valueOf(text, 'judge_shadow_judgments_total{result="compared"}'), 1)
    t.ok(valueOf(text, 'process_resident_memory_bytes') > 1e6)
    t.ok(valueOf(text, 'process_cpu_seconds_total') > 0)
    t.match(text, /\nnodejs_eventloop_lag_seconds \d/)
    t.equal(promtoolCheck(text), '', 'promtool check metrics passes', { skip: NO_PROMTOOL })
  },
)

t.test('verdicts are counted by judgment and verdict, and a verdict refused with 409 as a conflict', async (t) => {
  const project = await reviewProject(t)
  const server = await startJudgeServer(t, project.dir, project.env)
  const page = await server.get('/review?path=spam.judge.yaml')
  const form = verdictForms(page.text).find((f) => f.fields.verdict === 'model_right')!.fields
  const post = () =>
    fetch(`${server.url}/review`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
  t.equal((await post()).status, 303)
  t.equal((await post()).status, 409)
  const text = (await server.get('/metrics')).text
  t.equal(valueOf(text, 'judge_verdicts_total{judgment="spam",verdict="model_right"}'), 1)
  t.equal(valueOf(text, 'judge_verdict_conflicts_total'), 1)
  t.equal(promtoolCheck(text), '', 'promtool check metrics passes', { skip: NO_PROMTOOL })
})

t.test('with JUDGE_METRICS=off nothing is counted and /metrics is 404', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir, { JUDGE_METRICS: 'off' })
  t.equal((await server.get('/metrics')).status, 404)
  t.match((await server.get('/metrics')).text, /metrics are off/)
})

t.test('the alert rules of docs/deploy.md pass promtool check rules', { skip: NO_PROMTOOL }, async (t) => {
  const doc = execFileSync('cat', [join(import.meta.dirname, '../../../docs/deploy.md')], { encoding: 'utf8' })
  const rules = /```yaml\n(groups:\n[\s\S]*?)```/.exec(doc)?.[1]
  t.ok(rules, 'deploy.md has a rules file')
  const file = join(t.testdir({}), 'rules.yml')
  writeFileSync(file, rules!)
  const run = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' })
  t.equal(run.status, 0, `${run.stdout}${run.stderr}`)
  t.match(run.stdout, /SUCCESS: 2 rules found/)
})
