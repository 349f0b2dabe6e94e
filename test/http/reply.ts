import t from 'tap'
import {
  ConflictError,
  CostCapError,
  InternalError,
  JudgeError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  SpecError,
  UnauthorizedError,
  UsageError,
} from '../../src/errors.ts'
import { StoreError } from '../../src/store-error.ts'
import { html } from '../../src/http/html.ts'
import { createHash } from 'node:crypto'
import {
  errorReply,
  headersOf,
  JSON_HEADERS,
  jsonReply,
  PAGE_HEADERS,
  pageReply,
  redirectReply,
  SCRIPT_HASH,
} from '../../src/http/reply.ts'
import { REVIEW_SCRIPT } from '../../src/http/pages/review-script.ts'

const style = { json: true, token: null, clean: (m: string) => m.replace('/srv/', '') }

t.test('JSON replies carry nosniff; pages carry every security header', async (t) => {
  const json = headersOf(jsonReply({ a: 'é' }))
  t.match(json, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': '10',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  t.notOk('content-security-policy' in json)
  const page = headersOf(pageReply(html`<p>x</p>`, 201))
  t.match(page, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS })
  t.match(PAGE_HEADERS['content-security-policy'], /default-src 'none'/)
  t.match(PAGE_HEADERS['content-security-policy'], /script-src 'sha256-[A-Za-z0-9+/]+=*';/, 'one script, by its hash')
  t.notMatch(PAGE_HEADERS['content-security-policy'], /script-src[^;]*(unsafe|\*|self)/, 'no other')
  t.same(JSON_HEADERS, { 'x-content-type-options': 'nosniff' })
})

t.test('a form post is answered 303 See Other to where it came from', async (t) => {
  const reply = redirectReply('/review?path=sms')
  t.equal(reply.status, 303)
  t.equal(headersOf(reply).location, '/review?path=sms')
})

t.test('a known error answers with its status and cleaned message, as JSON or as a page', async (t) => {
  const json = errorReply(new UsageError('bad /srv/x'), style)
  t.same(json, {
    reply: { status: 400, type: 'json', body: '{"error":"bad x","name":"UsageError"}', headers: {} },
    logged: false,
  })
  const page = errorReply(new ConflictError('not offered <b>'), { ...style, json: false, token: 't' })
  t.equal(page.reply.status, 409)
  t.equal(page.reply.type, 'html')
  t.match(page.reply.body, /<p class="error">not offered &lt;b&gt;<\/p>/)
  t.match(page.reply.body, /href="\/\?token=t"/)
  t.equal(errorReply(new CostCapError('spam', 3, 1, 0.02, 0.01), style).reply.status, 422)
})

t.test('errors that need headers get them: Allow, WWW-Authenticate, Connection: close', async (t) => {
  t.same(errorReply(new MethodNotAllowedError('no', ['GET', 'HEAD']), style).reply.headers, { allow: 'GET, HEAD' })
  t.same(errorReply(new UnauthorizedError('no'), style).reply.headers, { 'www-authenticate': 'Bearer realm="judge"' })
  t.same(errorReply(new PayloadTooLargeError('big'), style).reply.headers, { connection: 'close' })
})

t.test('an unexpected error is a 500 that tells nothing of its details', async (t) => {
  const { reply, logged } = errorReply(new TypeError('secret detail at /srv/x'), style)
  t.equal(logged, true)
  t.equal(reply.status, 500)
  t.same(JSON.parse(reply.body), { error: 'internal error; the server log has the details', name: 'InternalError' })
  t.equal(errorReply('a string', style).reply.status, 500)
})

t.test(
  'an InternalError is a 500 whose message stays in the log; a JudgeError 500 shows its message and is logged',
  async (t) => {
    const internal = errorReply(new InternalError('/srv/store.sqlite: cannot open the store'), style)
    t.equal(internal.reply.status, 500)
    t.notMatch(String(internal.reply.body), /srv|store\.sqlite/)
    t.match(String(internal.reply.body), /the server log has the details/)
    t.equal(internal.logged, true)
    const shown = errorReply(new JudgeError('cannot write the reviews file x.csv'), style)
    t.match(String(shown.reply.body), /cannot write the reviews file x\.csv/)
    t.equal(shown.logged, true)
  },
)

t.test(
  "a store in trouble is a 503 showing its message, not logged as the server's fault; a locked one says when to try again",
  async (t) => {
    const damaged = errorReply(
      new StoreError('/srv/.judge/store.sqlite', 'damaged', '/srv/.judge/store.sqlite is damaged'),
      style,
    )
    t.equal(damaged.reply.status, 503)
    t.match(String(damaged.reply.body), /store\.sqlite is damaged/)
    t.equal(damaged.logged, false)
    t.same(damaged.reply.headers, {})
    t.same(errorReply(new StoreError('/srv/.judge/store.sqlite', 'locked', 'locked'), style).reply.headers, {
      'retry-after': '1',
    })
  },
)

t.test("a JSON error names its class, so a client tells a cost cap's 422 from a spec's", async (t) => {
  const json = { ...style, json: true }
  t.same(JSON.parse(errorReply(new CostCapError('spam', 3, 1, 0.02, 0.01), json).reply.body).name, 'CostCapError')
  t.same(
    JSON.parse(errorReply(new SpecError('a.judge.yaml', 'state', 'is missing'), json).reply.body).name,
    'SpecError',
  )
  t.same(JSON.parse(errorReply(new InternalError('hidden'), json).reply.body).name, 'InternalError')
})

t.test("the pages' one allowed script is the review keys' script, by its SHA-256", async (t) => {
  t.equal(SCRIPT_HASH, `sha256-${createHash('sha256').update(REVIEW_SCRIPT).digest('base64')}`)
  t.match(PAGE_HEADERS['content-security-policy'], `script-src '${SCRIPT_HASH}'`)
})
