import t from 'tap'
import { readConfig } from '../../src/config.ts'
import { createServerContext } from '../../src/http/server-context.ts'
import { answer } from '../helpers/contracts/answer-store.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import type { Engine } from '../../src/ports/engine.ts'
import { SPAM_YAML } from '../helpers/specs.ts'
import { EngineError } from '../../src/errors.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'

t.test(
  'a handler context: its token check, guard, caches, tasks and observer, made once from the configuration',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const config = readConfig(
      { JUDGE_PROJECTS: dir, JUDGE_SERVER_TOKEN: 'a-long-server-token', JUDGE_METRICS: 'off' },
      dir,
    )
    const logged: string[] = []
    const ctx = createServerContext(
      config,
      { engine: createFakeEngine(), log: (line) => logged.push(line) },
      new AbortController().signal,
    )
    t.teardown(() => ctx.runtime.close())
    t.ok(ctx.token, 'a configured token is checked')
    t.equal(ctx.observer.metrics, null, 'JUDGE_METRICS=off: no metrics')
    t.equal(ctx.tasks.size, 0)
    t.equal(ctx.replies.get('{}'), undefined)
    ctx.log('a line')
    t.same(logged, ['a line'], 'the log given')
    t.equal(ctx.clean(`${dir}/spam.judge.yaml`), 'spam.judge.yaml', 'messages lose the served folder')
    const project = ctx.paths.load('spam.judge.yaml', 'path', 0).project
    t.equal(project.specs[0].name, 'spam')
    const { store } = ctx.runtime.depsFor(project)
    store.putAnswers([answer()], 'state-0', { message: 'hi' })
    const read = store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')
    t.ok(Object.isFrozen(read), "the store's answers are kept in memory (answer-cache.ts)")
    const open = createServerContext(readConfig({ JUDGE_PROJECTS: dir }, dir), {}, new AbortController().signal)
    t.teardown(() => {
      open.runtime.close()
      open.observer.metrics?.stop()
    })
    t.equal(open.token, null, 'without a token the server is open')
    t.ok(open.now() instanceof Date)
  },
)

t.test("a juror engine's failure that shows its key shows it neither in the reply nor in the log", async (t) => {
  const KEY = 'sk-juror-openai-0123456789'
  const jury = SPAM_YAML.replace('name: spam', 'name: spam\nmodels: [a, { model: b, engine: openai }]')
  const dir = t.testdir({ 'spam.judge.yaml': jury })
  // The openai juror's engine echoes its key, as a provider's error may when its adapter does not catch it.
  const echoing = (engine: Engine): Engine =>
    engine.spendsNothing
      ? engine
      : { ...engine, ask: async () => Promise.reject(new EngineError(`engine answered 401: bad key ${KEY}`, 401)) }
  const env = { ENGINE: 'simulated', ENGINE_OPENAI_URL: 'http://127.0.0.1:9', OPENAI_API_KEY: KEY }
  const server = await startJudgeServer(t, dir, env, { watchEngine: echoing })
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'WIN a prize' } })
  t.equal(res.status, 502, res.text)
  t.match(res.text, /bad key \[redacted\]/, 'the failure is told')
  t.notMatch(res.text, KEY)
  t.notMatch(server.logs.join('\n'), KEY)
})
