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
])

const found = (value: string) => ({ kind: 'found', value })
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
]

function simplify(match: Match<string>): object {
  if (match.kind === 'found') return { kind: 'found', value: match.route.value }
  return match
}

for (const [method, path, expected] of cases) {
  t.test(`${method} ${JSON.stringify(path)} matches ${JSON.stringify(expected)}`, async (t) => {
    t.same(simplify(router.match(method, path)), expected)
  })
}

t.test('a route listed twice is refused when the router is made', async (t) => {
  t.throws(() => createRouter([{ method: 'GET', path: '/', value: 1 }, { method: 'GET', path: '/', value: 2 }]), /GET \/ is listed twice/)
})

t.test('an empty table matches nothing', async (t) => {
  t.same(createRouter([]).match('GET', '/'), none)
})
