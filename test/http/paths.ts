import t from 'tap'
import type { Test } from 'tap'
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { createSpecCache } from '../../src/adapters/files/spec-files.ts'
import { confineNamedFiles, isWithin, loadUnder, resolveUnder } from '../../src/http/paths.ts'
import { rawRequest, startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

/** A served folder beside a folder outside it, with symlinks in and out. */
function fixture(t: Test) {
  const base = t.testdir({
    served: {
      sms: { 'spam.judge.yaml': SPAM_YAML, 'notes.txt': 'not a spec' },
      empty: {},
      broken: { 'bad.judge.yaml': 'state: [message]\nquestions: nope\n' },
      '..dots': { 'spam.judge.yaml': SPAM_YAML },
    },
    outside: { 'secret.judge.yaml': SPAM_YAML },
  })
  const root = join(base, 'served')
  symlinkSync(join(base, 'outside'), join(root, 'out-dir'))
  symlinkSync(join(base, 'outside', 'secret.judge.yaml'), join(root, 'out.judge.yaml'))
  symlinkSync(join(root, 'sms'), join(root, 'in-dir'))
  mkdirSync(join(root, 'mixed'))
  symlinkSync(join(base, 'outside', 'secret.judge.yaml'), join(root, 'mixed', 'leak.judge.yaml'))
  return { root, base }
}

t.test('paths inside the served folder resolve to their real location', async (t) => {
  const { root } = fixture(t)
  const real = realpathSync(root)
  t.equal(resolveUnder(root, 'sms'), join(real, 'sms'))
  t.equal(resolveUnder(root, 'sms/spam.judge.yaml'), join(real, 'sms', 'spam.judge.yaml'))
  t.equal(resolveUnder(root, './sms/./spam.judge.yaml'), join(real, 'sms', 'spam.judge.yaml'))
  t.equal(resolveUnder(root, 'in-dir'), join(real, 'sms'), 'a symlink that stays inside is followed')
  t.equal(resolveUnder(root, '..dots'), join(real, '..dots'), 'a name that merely starts with dots is no escape')
  t.equal(resolveUnder(root, '.'), real)
})

const refusals: [string, unknown, number, RegExp][] = [
  ['missing', undefined, 400, /path is required/],
  ['empty', '', 400, /path is required/],
  ['null', null, 400, /path is required/],
  ['not a string', 42, 400, /path must be a string/],
  ['an array', ['sms'], 400, /path must be a string/],
  ['a NUL byte', 'sms\0/spam.judge.yaml', 403, /NUL byte/],
  ['absolute', '/etc/passwd', 403, /not absolute/],
  ['a backslash root', '\\etc\\passwd', 403, /not absolute/],
  ['a drive letter', 'C:\\judge', 403, /not absolute/],
  ['a .. segment', 'sms/../../outside', 403, /\.\. segment/],
  ['a .. segment that stays inside', 'sms/../sms', 403, /\.\. segment/],
  ['a backslash .. segment', 'sms\\..\\..\\outside', 403, /\.\. segment/],
  ['a symlinked folder leading out', 'out-dir', 403, /leads outside/],
  ['a symlinked spec leading out', 'out.judge.yaml', 403, /leads outside/],
  ['a path through a symlink out', 'out-dir/secret.judge.yaml', 403, /leads outside/],
  ['nothing there', 'nope/x.judge.yaml', 404, /does not exist/],
]

for (const [what, raw, status, message] of refusals) {
  t.test(`a path that is ${what} is refused with ${status}`, async (t) => {
    const { root } = fixture(t)
    t.throws(() => resolveUnder(root, raw), { status, message })
  })
}

t.test('loading refuses what is not a spec, a broken spec, and a folder whose specs link out', async (t) => {
  const { root } = fixture(t)
  const specs = createSpecCache()
  t.equal(loadUnder(specs, root, 'sms').selected[0].name, 'spam')
  t.throws(() => loadUnder(specs, root, 'sms/notes.txt'), { status: 422, message: /is not a spec file/ })
  t.throws(() => loadUnder(specs, root, 'empty'), { status: 422, message: /holds no spec files/ })
  t.throws(() => loadUnder(specs, root, 'broken'), { status: 422, name: 'SpecError', message: /questions/ })
  t.throws(() => loadUnder(specs, root, 'mixed'), { status: 403, message: /leak\.judge\.yaml beside it links outside/ })
  t.throws(() => loadUnder(specs, root, 'nope', 'shadow'), { status: 404, message: /^shadow nope does not exist/ })
  t.throws(() => loadUnder(specs, root, 'empty', 'shadow'), { status: 422, message: /^shadow: .*holds no spec files/ })
  t.throws(() => loadUnder(specs, join(root, 'gone'), 'sms'), { status: 404, message: /served folder/ })
})

t.test(
  'a spec link beside it that resolves nowhere (missing, looping, a name too long) does not stop its neighbours',
  async (t) => {
    const { root } = fixture(t)
    symlinkSync('missing.judge.yaml', join(root, 'sms', 'dangling.judge.yaml'))
    symlinkSync('loop.judge.yaml', join(root, 'sms', 'loop.judge.yaml'))
    symlinkSync('a'.repeat(300), join(root, 'sms', 'long.judge.yaml'))
    t.equal(loadUnder(createSpecCache(), root, 'sms/spam.judge.yaml').selected[0].name, 'spam')
  },
)

t.test("a file key added to the spec parser's list is confined too, with no second list to update", async (t) => {
  const { root, base } = fixture(t)
  const actual = await import('../../src/core/spec/spec-parse.ts')
  const paths = await t.mockImport<typeof import('../../src/http/paths.ts')>('../../src/http/paths.ts', {
    '../../src/core/spec/spec-parse.ts': { ...actual, FILE_KEYS: [...actual.FILE_KEYS, 'templates'] },
  })
  const project = loadUnder(createSpecCache(), root, 'sms/spam.judge.yaml')
  const inside = {
    ...project,
    specs: project.specs.map((s) => ({ ...s, templates: join(root, 'sms', 'templates.csv') })),
  }
  t.equal(paths.confineNamedFiles(root, inside as typeof project), inside, 'a new key naming a file inside is accepted')
  const outside = {
    ...project,
    specs: project.specs.map((s) => ({ ...s, templates: join(base, 'outside', 'templates.csv') })),
  }
  t.throws(() => paths.confineNamedFiles(root, outside as typeof project), {
    name: 'SpecError',
    status: 422,
    message: /templates.*outside the served folder/,
  })
  t.doesNotThrow(
    () => confineNamedFiles(root, outside as typeof project),
    'the unmocked module does not know the key: the list is the only thing read',
  )
})

t.test('isWithin tells a child from a sibling that shares a prefix', async (t) => {
  t.ok(isWithin('/srv/p', '/srv/p'))
  t.ok(isWithin('/srv/p', '/srv/p/a/b'))
  t.ok(isWithin('/srv/p', '/srv/p/..a'))
  t.notOk(isWithin('/srv/p', '/srv/p2'))
  t.notOk(isWithin('/srv/p', '/srv'))
})

t.test('over HTTP every confinement refusal has its status and names no server path', async (t) => {
  const { root, base } = fixture(t)
  const server = await startJudgeServer(t, root)
  const row = { message: 'hi' }
  const cases: [unknown, number][] = [
    [undefined, 400],
    [7, 400],
    ['../outside', 403],
    [join(base, 'outside'), 403],
    ['out-dir', 403],
    ['out.judge.yaml', 403],
    ['missing.judge.yaml', 404],
    ['sms/notes.txt', 422],
    ['empty', 422],
    ['broken', 422],
  ]
  for (const [path, status] of cases) {
    const res = await server.post('/v1/judge', { path, row })
    t.equal(res.status, status, `${JSON.stringify(path)} is ${status}`)
    t.type(res.body.error, 'string')
    t.notMatch(res.body.error, root, 'no absolute server path in the message')
  }
  const nul = await server.post('/v1/judge', { path: 'sms\u0000', row })
  t.equal(nul.status, 403)
  const query = await rawRequest(server.url, 'GET', '/v1/runs?path=sms%00', {})
  t.equal(query.status, 403)
  t.match(JSON.parse(query.text), { error: /NUL/ })
  const notSpec = await server.get('/v1/runs?path=sms/notes.txt')
  t.same(notSpec.body, {
    error: "sms/notes.txt is not a spec file (a spec file's name ends in .judge.yaml or .judge.yml)",
    name: 'InputError',
  })
})
