import t from 'tap'
import type { Test } from 'tap'
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { startJudgeServer, type JudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

// A served folder `served/p` beside a folder `outside` that the server must never read or write.
async function setup(t: Test, extra: string, link?: { name: string; to: string }) {
  const base = t.testdir({
    outside: { 'secret.csv': 'message,is_spam\nsecret row,yes\n', 'reviews.csv': '' },
    served: { p: { 'spam.judge.yaml': SPAM_YAML + extra, 'rows.csv': 'message\nhi\n' } },
  })
  if (link) symlinkSync(join(base, link.to), join(base, 'served/p', link.name))
  const server = await startJudgeServer(t, join(base, 'served'), {}, { engine: createFakeEngine() })
  return { base, server }
}

const CASES = [
  { name: 'a key that climbs out with ..', extra: 'key: ../../outside/secret.csv\n', key: 'key' },
  {
    name: 'a key given as an absolute path',
    extra: 'key: /etc/passwd\n',
    key: 'key',
    why: 'must be relative to the spec',
  },
  {
    name: 'a reviews file symlinked out',
    extra: 'reviews: spam.reviews.csv\n',
    key: 'reviews',
    link: { name: 'spam.reviews.csv', to: 'outside/reviews.csv' },
  },
  {
    name: 'a reviews file in a symlinked folder out, not made yet',
    extra: 'reviews: out/new.csv\n',
    key: 'reviews',
    link: { name: 'out', to: 'outside' },
  },
  {
    name: 'a data file given as an absolute path',
    extra: 'data: /etc/hostname\n',
    key: 'data',
    why: 'must be relative to the spec',
  },
] as const

// Every endpoint that judges with a spec or reads its files.
function requests(server: JudgeServer) {
  const form = 'path=p&question=is_spam&state=0000000000000000&kind=spot_check&verdict=confirmed'
  return [
    server.post('/v1/judge', { path: 'p/spam.judge.yaml', row: { message: 'hi' } }),
    server.post('/v1/judge', { path: 'p', row: { message: 'hi' } }),
    server.get('/v1/runs?path=p'),
    server.get('/v1/drift?path=p'),
    server.get('/runs?path=p'),
    server.get('/review?path=p'),
    server.call('POST', '/review', { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  ]
}

for (const c of CASES) {
  t.test(`${c.name} is a 422 on every endpoint, naming the key, with no server path`, async (t) => {
    const { base, server } = await setup(t, c.extra, 'link' in c ? c.link : undefined)
    const why = 'why' in c ? c.why : 'names a file outside the served folder'
    for (const res of await Promise.all(requests(server))) {
      t.equal(res.status, 422)
      t.match(res.text, `${c.key}: ${why}`)
      t.notMatch(res.text, new RegExp(base), 'no absolute path of the server')
      t.notMatch(res.text, /secret row|root:/, 'nothing outside was read')
    }
    const home = await server.get('/')
    t.equal(home.status, 200, 'the home page still lists the folder')
    t.match(home.text, `${c.key}: ${why}`)
    t.same(readdirSync(join(base, 'outside')).sort(), ['reviews.csv', 'secret.csv'], 'nothing was made outside')
    t.equal(existsSync(join(base, 'outside/new.csv')), false)
  })
}

t.test('a shadow candidate whose files leave the folder is refused before anything is asked', async (t) => {
  const { base, server } = await setup(t, '')
  mkdirSync(join(base, 'served/cand'))
  writeFileSync(join(base, 'served/cand/spam.judge.yaml'), SPAM_YAML + 'key: ../../outside/secret.csv\n')
  const res = await server.post('/v1/judge', { path: 'p', row: { message: 'hi' }, shadow: 'cand' })
  t.equal(res.status, 422)
  t.match(res.body.error, /^shadow: .*key: names a file outside the served folder/)
})

t.test('files inside the served folder, through symlinks that stay inside, are fine', async (t) => {
  const { base, server } = await setup(t, 'key: k.csv\nreviews: inner/r.csv\n')
  mkdirSync(join(base, 'served/shared'))
  writeFileSync(join(base, 'served/shared/k.csv'), 'message,is_spam\nhi,no\n')
  symlinkSync(join(base, 'served/shared/k.csv'), join(base, 'served/p/k.csv'))
  symlinkSync(join(base, 'served/shared'), join(base, 'served/p/inner'))
  t.equal((await server.post('/v1/judge', { path: 'p', row: { message: 'hi' } })).status, 200)
  t.equal((await server.get('/review?path=p')).status, 200)
})
