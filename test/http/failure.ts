import t from 'tap'
import { join } from 'node:path'
import { jsonReply } from '../../src/http/reply.ts'
import { ROUTES } from '../../src/http/routes.ts'
import { StoreError } from '../../src/store-error.ts'
import { UsageError } from '../../src/errors.ts'
import { failure } from '../../src/http/failure.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test('an unexpected error is a 500 with nothing of its details, logged with the stack', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const routes = [
    ...ROUTES,
    {
      method: 'GET',
      path: '/v1/boom',
      value: () => {
        throw new TypeError(`broke in ${dir}`)
      },
    },
    {
      method: 'GET',
      path: '/v1/after',
      value: () => ({
        ...jsonReply({ ok: true }),
        after: async () => {
          throw new Error('late failure')
        },
      }),
    },
    { method: 'GET', path: '/v1/bad-header', value: () => ({ ...jsonReply({}), headers: { location: 'a\nb' } }) },
  ]
  const server = await startJudgeServer(t, dir, {}, { routes })
  const res = await server.get('/v1/boom')
  t.equal(res.status, 500)
  t.match(res.body, {
    error: 'internal error; the server log has the details',
    name: 'InternalError',
    request_id: String,
  })
  t.match(server.logs[0], /^internal error on GET \/v1\/boom \(request [0-9a-f-]{36}\): TypeError: broke in \.\n/)
  t.notMatch(server.logs[0], dir)
  t.equal((await server.get('/v1/after')).status, 200)
  await server.running.handler.idle(1000)
  t.match(server.logs.at(-1), /^after-response task failed: late failure$/)
  await t.rejects(server.get('/v1/bad-header'), 'a response that cannot be written drops the connection')
  await server.running.handler.idle(1000)
  t.match(server.logs.at(-1), /^internal error while answering: TypeError.*location/)
  t.equal((await server.get('/v1/runs?path=spam.judge.yaml')).status, 200, 'and the server carries on')
})

t.test(
  'a store in trouble is a 503 naming the file, logged in one line without a stack; a page shows it too',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const trouble = () => {
      throw new StoreError(
        join(dir, '.judge', 'store.sqlite'),
        'locked',
        `${join(dir, '.judge', 'store.sqlite')} stayed locked by another writer (pid 7: node judge.js run)`,
      )
    }
    const routes = [
      ...ROUTES,
      { method: 'GET', path: '/v1/locked', value: trouble },
      { method: 'GET', path: '/locked', value: trouble },
    ]
    const server = await startJudgeServer(t, dir, {}, { routes })
    const res = await server.get('/v1/locked')
    t.equal(res.status, 503)
    t.same(res.body, {
      error: '.judge/store.sqlite stayed locked by another writer (pid 7: node judge.js run)',
      name: 'StoreError',
      request_id: res.headers.get('x-request-id'),
    })
    t.equal(res.headers.get('retry-after'), '1')
    t.same(server.logs, [
      'store trouble on GET /v1/locked: .judge/store.sqlite stayed locked by another writer (pid 7: node judge.js run)',
    ])
    const page = await server.get('/locked')
    t.equal(page.status, 503)
    t.match(
      page.text,
      `<p class="error">.judge/store.sqlite stayed locked by another writer (pid 7: node judge.js run) (request ${page.headers.get('x-request-id')})</p>`,
    )
  },
)

t.test(
  'a page asked without path, as the serve banner prints it, stays a 400 and links the spec files served for that page',
  async (t) => {
    const dir = t.testdir({
      sms: { 'spam.judge.yaml': SPAM_YAML },
      other: { 'tone.judge.yaml': SPAM_YAML.replace('name: spam', 'name: tone'), deeper: {} },
    })
    const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok' })
    for (const page of ['/review', '/runs', '/accuracy']) {
      const res = await server.get(`${page}?token=tok`)
      t.equal(res.status, 400, page)
      t.match(
        res.text,
        /<p class="error">path is required: a spec file or folder, relative to the served folder<\/p>/,
        page,
      )
      t.match(
        res.text,
        `<li><a href="${page}?path=other%2Ftone.judge.yaml&amp;token=tok"><code>other/tone.judge.yaml</code></a></li><li><a href="${page}?path=sms%2Fspam.judge.yaml&amp;token=tok"><code>sms/spam.judge.yaml</code></a></li>`,
        page,
      )
      t.match(res.text, '<a href="/?token=tok">every folder</a>', page)
    }
    const link = /href="(\/review\?path=sms%2Fspam\.judge\.yaml&amp;token=tok)"/.exec(
      (await server.get('/review?token=tok')).text,
    )![1]
    t.equal((await server.get(link.replace(/&amp;/g, '&'))).status, 200, 'each link opens the page')
    const json = await server.get('/v1/runs', { authorization: 'Bearer tok' })
    t.equal(json.status, 400)
    t.same(
      json.body,
      { error: 'path is required: a spec file or folder, relative to the served folder', name: 'PathRequiredError' },
      'the JSON error keeps its shape, with its name',
    )
  },
)

t.test('a page asked without path over a folder holding no spec says how to make one', async (t) => {
  const server = await startJudgeServer(t, t.testdir({ 'notes.txt': 'x' }))
  const res = await server.get('/runs')
  t.equal(res.status, 400)
  t.match(res.text, /holds no spec file yet: <code>judge init<\/code> writes one/)
})

t.test("an error the server did not expect is logged with its cause; the caller's own is not logged", async (t) => {
  const logs: string[] = []
  const ctx = { log: (line: string) => logs.push(line), clean: (text: string) => text }
  const outer = new Error('outer', { cause: new Error('inner') })
  t.equal(failure(ctx, outer, 'GET', '/v1/x', null, 'id-1').status, 500)
  t.match(logs[0], /^internal error on GET \/v1\/x \(request id-1\): Error: outer\n[\s\S]*caused by: Error: inner/)
  failure(ctx, 'a string thrown', 'GET', '/x', null, 'id-2')
  t.equal(logs[1], 'internal error on GET /x (request id-2): a string thrown')
  failure(
    ctx,
    Object.assign(new Error('no stack'), { stack: undefined, cause: 'a plain cause' }),
    'GET',
    '/x',
    null,
    'id-3',
  )
  t.equal(logs[2], 'internal error on GET /x (request id-3): Error: no stack\ncaused by: a plain cause')
  const refused = failure(ctx, new UsageError('bad field'), 'POST', '/v1/judge', null, 'id-4')
  t.equal(refused.status, 400)
  t.equal(logs.length, 3, "the caller's error is not logged")
})
