import t from 'tap'
import { fetchModelList, parseModelList } from '../../src/adapters/model-list.ts'
import type { HttpTarget } from '../../src/adapters/engine-http.ts'

t.test("System One's list gives each model's name, description and release date", async (t) => {
  // The shape of GET /v1/models in TypeSafe's SDKs (ListModelsResponse: name, description, release_date).
  const text = JSON.stringify({
    models: [
      {
        name: 'jev-latest',
        description: "The latest iteration of TypeSafe's System One Model: Jev",
        release_date: '2026-09-10T18:38:01.391457+00:00',
      },
      { name: 'jev-1.14.0' },
    ],
  })
  t.same(parseModelList(text), [
    {
      name: 'jev-latest',
      description: "The latest iteration of TypeSafe's System One Model: Jev",
      releaseDate: '2026-09-10T18:38:01.391457+00:00',
    },
    { name: 'jev-1.14.0', description: null, releaseDate: null },
  ])
})

t.test('an OpenAI-compatible list gives each id, and its creation day when known', async (t) => {
  const text = JSON.stringify({
    object: 'list',
    data: [
      { id: 'qwen2.5-7b', object: 'model', created: 1_700_000_000, owned_by: 'vllm' },
      { id: 'llama3.2:latest', created: 0 },
    ],
  })
  t.same(parseModelList(text), [
    { name: 'qwen2.5-7b', description: null, releaseDate: '2023-11-14' },
    { name: 'llama3.2:latest', description: null, releaseDate: null },
  ])
})

t.test("Anthropic's list gives each id, its display name and its creation day", async (t) => {
  const text = JSON.stringify({
    data: [
      { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-01T00:00:00Z', type: 'model' },
      { id: 'claude-x', type: 'model' },
    ],
    has_more: false,
    first_id: 'claude-haiku-4-5',
    last_id: 'claude-x',
  })
  t.same(parseModelList(text), [
    { name: 'claude-haiku-4-5', description: 'Claude Haiku 4.5', releaseDate: '2025-10-01' },
    { name: 'claude-x', description: null, releaseDate: null },
  ])
})

t.test('anything else is an unusable answer naming what is wrong', async (t) => {
  t.throws(() => parseModelList('{"items": []}'), { name: 'EngineError', message: /needs "models" or "data"/ })
  t.throws(() => parseModelList('{"models": [{"description": "x"}]}'), {
    message: /models\[0\] is .* not a model with a name/,
  })
  t.throws(() => parseModelList('{"data": [7]}'), { message: /data\[0\] is 7, not a model with an id/ })
  t.throws(() => parseModelList('<html>'), { message: /not JSON/ })
})

function target(fetch: typeof globalThis.fetch): HttpTarget {
  return {
    endpoint: 'http://engine.test/v1/systemone',
    headers: { authorization: 'Bearer sk-secret' },
    fetch,
    timeoutMs: 1000,
  }
}

t.test(
  "the list is fetched once with the target's headers, and a failure is an EngineError without the key",
  async (t) => {
    const seen: [string, RequestInit | undefined][] = []
    const ok = target(async (url, init) => {
      seen.push([String(url), init])
      return new Response('{"models": [{"name": "jev-latest"}]}')
    })
    t.same(
      (await fetchModelList(ok, 'http://engine.test/v1/models', 'sk-secret')).map((m) => m.name),
      ['jev-latest'],
    )
    t.equal(seen[0][1]?.method, 'GET')
    t.match(seen[0][1]?.headers, { authorization: 'Bearer sk-secret', accept: 'application/json' })
    const refused = target(async () => new Response('{"detail": "bad key sk-secret"}', { status: 401 }))
    const error = await fetchModelList(refused, 'http://engine.test/v1/models', 'sk-secret').catch((e: Error) => e)
    t.match(error, { name: 'EngineError', message: 'engine answered 401: bad key [redacted]' })
    const garbage = target(async () => new Response('{"models": 7}'))
    await t.rejects(fetchModelList(garbage, 'http://engine.test/v1/models', 'sk-secret'), {
      name: 'EngineError',
      message: /unusable/,
    })
  },
)
