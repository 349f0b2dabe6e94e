import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { readConfig } from '../src/config.ts'
import { createRuntime } from '../src/runtime.ts'
import type { Project } from '../src/core/types.ts'
import { createFakeEngine } from './helpers/fake-engine.ts'
import { createMemoryFileLock } from './helpers/memory-file-lock.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'
import { judgeRequest } from '../src/app/judge-request.ts'
import { runRows } from '../src/app/run.ts'
import { tidy } from '../src/core/judge/answer.ts'
import { tokenCost } from '../src/core/judge/cost.ts'
import { EngineError } from '../src/errors.ts'
import type { Engine } from '../src/ports/engine.ts'
import { modelFor } from '../src/core/judge/deps.ts'
import { spec, SPAM_YAML } from './helpers/specs.ts'

/** A project of no specs in `dir`: enough to find its store. */
const at = (dir: string): Project => ({ path: dir, dir, specs: [], selected: [] })

t.test('one store is opened per store file and shared by the folders it serves', async (t) => {
  const dir = t.testdir({ a: { 'x.judge.yaml': '' }, b: {} })
  const config = readConfig({ JUDGE_STORE: join(dir, 'one.sqlite') }, dir)
  const runtime = createRuntime(config, { engine: createFakeEngine({ defaultModel: 'fake-1' }) })
  t.teardown(() => runtime.close())
  const a = runtime.depsFor(at(join(dir, 'a')))
  t.equal(runtime.depsFor(at(join(dir, 'b'))), a, 'the same deps for the same store file')
  t.equal(runtime.storeFileFor(join(dir, 'a')), join(dir, 'one.sqlite'))
  t.equal(a.defaultModel, 'fake-1', "the engine's default model when ENGINE_MODEL is unset")
  t.equal(a.inflight, runtime.depsFor(at(join(dir, 'b'))).inflight)
})

t.test("without a key there is no engine, and the model defaults to the engine's default", async (t) => {
  const dir = t.testdir({})
  const runtime = createRuntime(readConfig({}, dir))
  t.teardown(() => runtime.close())
  const deps = runtime.depsFor(at(dir))
  t.equal(deps.engine, null)
  t.equal(deps.defaultModel, 'jev-1.13.0')
  t.equal(runtime.storeFileFor(dir), join(dir, '.judge/store.sqlite'))
})

t.test('with a key the System One adapter is used; ENGINE_MODEL overrides the model', async (t) => {
  const dir = t.testdir({})
  const runtime = createRuntime(readConfig({ ENGINE_API_KEY: 'k', ENGINE_MODEL: 'jev-2' }, dir), {
    fetch: (async () => new Response('{}')) as typeof fetch,
  })
  t.teardown(() => runtime.close())
  const deps = runtime.depsFor(at(dir))
  t.equal(deps.engine?.defaultModel, 'jev-1.13.0')
  t.equal(deps.defaultModel, 'jev-2')
})

t.test('each store has its own requests in flight, so that identical rows ask once per store', async (t) => {
  const dir = t.testdir({ a: {}, b: {} })
  const runtime = createRuntime(readConfig({}, dir), { engine: createFakeEngine() })
  t.teardown(() => runtime.close())
  t.not(runtime.depsFor(at(join(dir, 'a'))).inflight, runtime.depsFor(at(join(dir, 'b'))).inflight)
  t.equal(runtime.depsFor(at(join(dir, 'a'))).inflight, runtime.depsFor(at(join(dir, 'a'))).inflight)
})

t.test('reading creates no store: existingStore is null until the file exists', async (t) => {
  const dir = t.testdir({})
  const runtime = createRuntime(readConfig({}, dir))
  t.teardown(() => runtime.close())
  t.equal(runtime.existingStore(at(dir)), null)
  runtime.depsFor(at(dir))
  t.ok(runtime.existingStore(at(dir)), 'once opened it is the store')
})

t.test(
  "the file lock is shared with other processes: SQLite's, its lock file in .judge/ beside the file, unless one is passed",
  async (t) => {
    const dir = t.testdir({})
    const runtime = createRuntime(readConfig({}, dir))
    t.teardown(() => runtime.close())
    t.equal(
      await runtime.fileLocks.hold(join(dir, 'spam.reviews.csv'), async () =>
        existsSync(join(dir, '.judge', 'spam.reviews.csv.lock')),
      ),
      true,
    )
    const fileLocks = createMemoryFileLock()
    t.equal(createRuntime(readConfig({}, dir), { fileLocks }).fileLocks, fileLocks)
  },
)

t.test('ENGINE=simulated needs no key, and keeps its answers under its own model ids', async (t) => {
  const dir = t.testdir({})
  const runtime = createRuntime(readConfig({ ENGINE: 'simulated', ENGINE_MODEL: 'jev-2' }, dir))
  t.teardown(() => runtime.close())
  const deps = runtime.depsFor(at(dir))
  t.equal(deps.engine?.defaultModel, 'simulated-1')
  t.equal(modelFor(spec(), deps), 'simulated-jev-2', 'ENGINE_MODEL is asked under a simulated id')
  t.equal(modelFor(spec('model: jev-1.13.0\n' + SPAM_YAML), deps), 'simulated-jev-1.13.0', "so is a spec's model")
  const plain = createRuntime(readConfig({ ENGINE: 'simulated' }, dir))
  t.teardown(() => plain.close())
  t.equal(modelFor(spec(), plain.depsFor(at(dir))), 'simulated-1')
})

t.test(
  "ENGINE_TIMEOUT_MS bounds a request's wait for the engine: an engine that never answers fails with that limit",
  async (t) => {
    const dir = t.testdir({})
    const silent = await startSystemOneServer({ latencyMs: 600_000 })
    t.teardown(() => silent.close())
    const runtime = createRuntime(
      readConfig({ ENGINE_API_KEY: 'k', ENGINE_URL: silent.url, ENGINE_TIMEOUT_MS: '50' }, dir),
    )
    t.teardown(() => runtime.close())
    const judgment = spec(SPAM_YAML, join(dir, 'spam.judge.yaml'))
    const asked = judgeRequest(runtime, {
      project: { ...at(dir), specs: [judgment], selected: [judgment] },
      row: { message: 'hello' },
      cap: 1,
    })
    // Without the setting the adapter would wait its default 30 s per attempt: stop long before.
    let guard: NodeJS.Timeout | undefined
    const late = new Promise<never>(
      (_, reject) =>
        (guard = setTimeout(() => reject(new Error('ENGINE_TIMEOUT_MS did not reach the adapter')), 20_000)),
    )
    t.teardown(() => clearTimeout(guard))
    await t.rejects(
      Promise.race([asked, late]),
      new EngineError('the engine did not answer within 50 ms, the bound on one request', null),
    )
    // On a busy machine the attempt may be cut off before the engine even sees it: never a second one.
    t.ok(
      silent.requests.length <= 1,
      `the attempt was cut off at the limit, which leaves no time for another (${silent.requests.length} seen)`,
    )
  },
)

t.test('ENGINE_PRICE_PER_MTOK reaches the judge dependencies: a run costs its tokens at that price', async (t) => {
  const dir = t.testdir({})
  const fake = createFakeEngine()
  let tokens = 0
  const engine: Engine = {
    defaultModel: 'fake-1',
    ask: async (request, signal) => {
      const result = await fake.ask(request, signal)
      tokens += result.inputTokens
      return result
    },
  }
  const runtime = createRuntime(readConfig({ ENGINE_PRICE_PER_MTOK: '1000' }, dir), { engine })
  t.teardown(() => runtime.close())
  const judgment = spec(SPAM_YAML, join(dir, 'spam.judge.yaml'))
  const rows = ['hello', 'WIN a prize'].map((message, i) => ({ row: { message }, where: `row ${i + 1}` }))
  const [run] = await runRows(runtime, {
    project: { ...at(dir), specs: [judgment], selected: [judgment] },
    specs: [judgment],
    source: { kind: 'rows', rows },
    cap: 100,
    concurrency: 1,
  })
  t.ok(tokens > 0)
  t.equal(run.cost, tidy(tokenCost(tokens, 1000)))
  t.equal(runtime.depsFor(at(dir)).pricePerMtok, 1000)
})

t.test(
  'the simulated engine asks in the process without a governor, unless ENGINE_RPM asks for a pace; any other engine has one',
  async (t) => {
    const dir = t.testdir({})
    const depsOf = (env: Record<string, string>, engine?: Engine) => {
      const runtime = createRuntime(
        readConfig(
          { JUDGE_STORE: join(dir, `${Object.values(env).join('-')}${engine ? '-fake' : ''}.sqlite`), ...env },
          dir,
        ),
        engine ? { engine } : {},
      )
      t.teardown(() => runtime.close())
      return runtime.depsFor(at(dir))
    }
    t.equal(depsOf({ ENGINE: 'simulated' }).governor, undefined)
    t.ok(depsOf({ ENGINE: 'simulated', ENGINE_RPM: '600' }).governor, 'a pace asked for is kept')
    t.ok(depsOf({ ENGINE: 'openai', ENGINE_URL: 'http://127.0.0.1:9/v1', ENGINE_MODEL: 'm' }).governor)
    t.ok(depsOf({}, createFakeEngine()).governor, 'an engine passed in code is governed: it may fail')
  },
)
