import t from 'tap'
import { createRouter, type Match } from '../../src/http/router.ts'

const router = createRouter([
  { method: 'POST', path: '/v1/judge', value: 'judge' },
  { method: 'GET', path: '/v1/runs', value: 'runs' },
  { method: 'GET', path: '/', value: 'home' },
  { method: 'GET', path: '/review', value: 'review' },
  { method: 'POST', path: '/review', value: 'verdict' },
  { method: 'GET', path: '/only-head', value: 'get' },
  { method: 'HEAD', path: '/only-head', value: 'head' },
  { method: 'GET', path: '/v1/runs/{run_id}', value: 'run' },
  { method: 'GET', path: '/v1/runs/latest', value: 'latest' },
  { method: 'GET', path: '/a/{x}/b/{y}', value: 'two' },
])

const found = (value: string, params: Record<string, string> = {}) => ({ kind: 'found', value, params })
const allow = (...methods: string[]) => ({ kind: 'method', allow: methods })
const none = { kind: 'none' }

// [method, path, expected]
const cases: [string, string, object][] = [
  ['POST', '/v1/judge', found('judge')],
  ['GET', '/v1/judge', allow('POST')],
  ['HEAD', '/v1/judge', allow('POST')],
  ['GET', '/v1/runs', found('runs')],
  ['HEAD', '/v1/runs', found('runs')],
  ['DELETE', '/v1/runs', allow('GET', 'HEAD')],
  ['GET', '/', found('home')],
  ['HEAD', '/', found('home')],
  ['POST', '/', allow('GET', 'HEAD')],
  ['GET', '/review', found('review')],
  ['POST', '/review', found('verdict')],
  ['PUT', '/review', allow('GET', 'HEAD', 'POST')],
  ['HEAD', '/only-head', found('head')],
  ['PATCH', '/only-head', allow('GET', 'HEAD')],
  ['GET', '/v1/runs/', none],
  ['GET', '/V1/runs', none],
  ['GET', '//v1/runs', none],
  ['GET', '/v1', none],
  ['GET', '', none],
  ['get', '/', allow('GET', 'HEAD')],
  ['GET', '/v1/runs/20260101T090000Z-abc123', found('run', { run_id: '20260101T090000Z-abc123' })],
  ['HEAD', '/v1/runs/r1', found('run', { run_id: 'r1' })],
  ['POST', '/v1/runs/r1', allow('GET', 'HEAD')],
  ['GET', '/v1/runs/latest', found('latest')],
  ['GET', '/v1/runs/a%20b%3F', found('run', { run_id: 'a b?' })],
  ['GET', '/v1/runs/a%2Fb', none],
  ['GET', '/v1/runs/a%00b', none],
  ['GET', '/v1/runs/%E0%A4%A', none],
  ['GET', '/v1/runs//', none],
  ['GET', '/v1/runs/r1/', none],
  ['GET', '/v1/runs/%7Brun_id%7D', found('run', { run_id: '{run_id}' })],
  ['GET', '/a/1/b/2', found('two', { x: '1', y: '2' })],
  ['GET', '/a/1/c/2', none],
]

function simplify(match: Match<string>): object {
  if (match.kind === 'found') return { kind: 'found', value: match.route.value, params: match.params }
  return match
}

for (const [method, path, expected] of cases) {
  t.test(`${method} ${JSON.stringify(path)} matches ${JSON.stringify(expected)}`, async (t) => {
    t.same(simplify(router.match(method, path)), expected)
  })
}

t.test('a route listed twice is refused when the router is made', async (t) => {
  t.throws(
    () =>
      createRouter([
        { method: 'GET', path: '/', value: 1 },
        { method: 'GET', path: '/', value: 2 },
      ]),
    /GET \/ is listed twice/,
  )
})

t.test('an empty table matches nothing', async (t) => {
  t.same(createRouter([]).match('GET', '/'), none)
})
