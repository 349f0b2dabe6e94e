import t from 'tap'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import type { AnsweredBy } from '../../src/http/handler.ts'
import { REVALIDATE_MS } from '../../src/http/resolved-paths.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'
import { createReplyCache, keptReplies, type CachedReply } from '../../src/http/reply-cache.ts'
import { jsonReply, type Reply } from '../../src/http/reply.ts'
import type { Resolved } from '../../src/http/resolved-paths.ts'

const resolved = {} as Resolved
const reply = (body: string, under = resolved): CachedReply => ({
  reply: { status: 200, type: 'json', body },
  resolved: under,
  answers: [],
})
const bodyOf = (kept: CachedReply | undefined) => kept?.reply.body

t.test('replies are kept by request body, within a count and a size', async (t) => {
  const cache = createReplyCache({ maxEntries: 2, maxChars: 20 })
  cache.set('a', reply('1'))
  cache.set('b', reply('2'))
  t.equal(bodyOf(cache.get('a')), '1')
  cache.set('c', reply('3'))
  t.equal(cache.get('a'), undefined, 'the oldest goes beyond the count')
  t.equal(bodyOf(cache.get('c')), '3')
  cache.set('c', reply('4'))
  t.equal(bodyOf(cache.get('c')), '4', 'a body kept again replaces its reply')
  cache.set('long-body', reply('0123456789'))
  t.equal(bodyOf(cache.get('long-body')), '0123456789')
  t.equal(cache.get('b'), undefined, 'older ones go to make room in characters')
  cache.set('huge', reply('x'.repeat(30)))
  t.equal(cache.get('huge'), undefined, 'a reply larger than the whole cache is not kept')
  t.equal(bodyOf(cache.get('long-body')), '0123456789', 'nor does it push out the rest')
})

t.test('the replies of a resolution no longer current can be dropped, and every reply at once', async (t) => {
  const cache = createReplyCache()
  const live = { current: true } as Resolved
  const stale = { current: true } as Resolved
  cache.set('{"row":{"message":"kept"}}', reply('1', live))
  cache.set('{"row":{"message":"forgotten"}}', reply('2', stale))
  stale.current = false
  cache.dropStale()
  t.equal(cache.get('{"row":{"message":"forgotten"}}'), undefined, 'the body holding the row is no longer kept')
  t.equal(bodyOf(cache.get('{"row":{"message":"kept"}}')), '1')
  cache.clear()
  t.equal(cache.get('{"row":{"message":"kept"}}'), undefined)
  cache.set('x', reply('y'.repeat(7_999_990), live))
  t.equal(cache.get('x')?.reply.body.length, 7_999_990, 'after a clear the whole size is free again')
})

t.test('the wrapper keeps what its endpoint marks, and gives it back while its resolution stands', async (t) => {
  const under = { current: true } as Resolved
  let fresh = true
  const counted: unknown[] = []
  const ctx = {
    replies: createReplyCache(),
    paths: { fresh: () => fresh },
    now: () => new Date(0),
    observer: { metrics: { answers: (keys: readonly unknown[]) => counted.push(...keys) } },
  }
  let calls = 0
  const endpoint = (_ctx: unknown, request: { body: string }): Reply => {
    calls++
    const reply = jsonReply({ n: calls })
    return request.body === 'kept'
      ? { ...reply, keep: { resolved: under, answers: [['spam', 'is_spam', 'store']] } }
      : reply
  }
  const wrapped = keptReplies(endpoint)
  t.same(wrapped(ctx, { body: 'kept' }), {
    ...jsonReply({ n: 1 }),
    keep: { resolved: under, answers: [['spam', 'is_spam', 'store']] },
  })
  t.same(
    wrapped(ctx, { body: 'kept' }),
    { ...jsonReply({ n: 1 }), kept: true },
    'the same body: the kept reply, marked kept',
  )
  t.equal(calls, 1, 'without calling the endpoint')
  t.same(counted, [['spam', 'is_spam', 'store']], 'its answers counted again')
  t.same(wrapped(ctx, { body: 'other' }), jsonReply({ n: 2 }), 'a reply not marked is not kept')
  t.same(wrapped(ctx, { body: 'other' }), jsonReply({ n: 3 }))
  fresh = false
  t.same(
    wrapped(ctx, { body: 'kept' }),
    { ...jsonReply({ n: 4 }), keep: { resolved: under, answers: [['spam', 'is_spam', 'store']] } },
    'no longer fresh: made anew',
  )
  const bare = { replies: createReplyCache(), paths: { fresh: () => true }, now: () => new Date(0) }
  const later = keptReplies(async (_ctx: unknown, _request: { body: string }) => ({
    ...jsonReply(1),
    keep: { resolved: under, answers: [] },
  }))
  await later(bare, { body: 'x' })
  t.same(
    later(bare, { body: 'x' }),
    { ...jsonReply(1), kept: true },
    'a reply made later is kept too, with no metrics to count',
  )
})

t.test(
  'a kept reply never outlives what it was made from: spec, named files, store, answers deleted, token, the headers the guard reads',
  async (t) => {
    const dir = t.testdir({
      projects: {
        sms: { 'spam.judge.yaml': `${SPAM_YAML}key: spam.key.csv\n`, 'spam.key.csv': 'message,is_spam\nhi,no\n' },
      },
      outside: { 'key.csv': 'message,is_spam\n' },
    })
    const root = join(dir, 'projects')
    // The store above the spec's folder, so that one can later be made nearer to it.
    mkdirSync(join(root, '.judge'))
    writeFileSync(join(root, '.judge', 'store.sqlite'), '')
    let clock = Date.parse('2026-01-01T00:00:00Z')
    const taken: AnsweredBy[] = []
    const engine = createFakeEngine()
    const server = await startJudgeServer(
      t,
      root,
      { JUDGE_SERVER_TOKEN: 'tok-123456' },
      { engine, now: () => new Date(clock), trace: (by) => taken.push(by) },
    )
    const auth = { authorization: 'Bearer tok-123456' }
    const body = { path: 'sms/spam.judge.yaml', row: { message: 'Free entry! Text WIN' } }
    const judge = (headers: Record<string, string> = auth) => server.post('/v1/judge', body, headers)
    const later = () => (clock += REVALIDATE_MS + 1)
    t.equal((await judge()).status, 200, 'asked and stored')
    t.equal((await judge()).body.is_spam.cached, true, 'then answered from the store, and kept')
    const kept = await judge()
    t.equal(kept.body.is_spam.cached, true)
    t.same(taken.slice(-2), ['full', 'fast'], 'the same body again: the kept reply')

    t.equal(
      (await judge({ authorization: 'Bearer wrong-token' })).status,
      401,
      'a wrong token never gets the kept reply',
    )
    t.equal(
      (await judge({ ...auth, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status,
      403,
      'nor another site',
    )
    t.same(taken.slice(-2), ['guard', 'guard'])

    // `judge cache --prune` in another process deletes the answers the kept reply was made from.
    const other = openSqliteStore(join(root, '.judge', 'store.sqlite'))
    t.ok(
      other.answerGroups().length > 0 && other.answerGroups().every((g) => other.deleteAnswers(g) > 0),
      'the answers deleted',
    )
    other.close()
    const asked = engine.calls.length
    t.equal((await judge()).body.is_spam.cached, true, 'within the revalidation time, still the kept reply')
    later()
    const pruned = await judge()
    t.equal(pruned.body.is_spam.cached, false, 'answers deleted: asked again, not the kept reply')
    t.equal(engine.calls.length, asked + 1)
    t.equal((await judge()).body.is_spam.cached, true, 'and kept anew')

    writeFileSync(
      join(root, 'sms', 'spam.judge.yaml'),
      `${SPAM_YAML.replace(/act:[\s\S]*$/, 'act:\n  is_spam:\n    - route: edited\n')}key: spam.key.csv\n`,
    )
    later()
    t.equal((await judge()).body.is_spam.route, 'edited', 'an edited spec: a fresh reply')

    rmSync(join(root, 'sms', 'spam.key.csv'))
    symlinkSync(join(dir, 'outside', 'key.csv'), join(root, 'sms', 'spam.key.csv'))
    later()
    const linked = await judge()
    t.equal(linked.status, 422, 'a named file now linking outside: refused, not the kept reply')
    t.match(linked.body.error, /key.*outside the served folder/)
    rmSync(join(root, 'sms', 'spam.key.csv'))
    later()
    t.equal((await judge()).status, 200)

    mkdirSync(join(root, 'sms', '.judge'))
    writeFileSync(join(root, 'sms', '.judge', 'store.sqlite'), '')
    later()
    const moved = await judge()
    t.equal(moved.status, 200)
    t.equal(
      moved.body.is_spam.cached,
      false,
      'a store nearer the spec: its own answers, asked again, not the kept reply',
    )
  },
)
