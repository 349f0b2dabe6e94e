import { rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { createSpecCache, loadProject } from '../../../src/adapters/files/spec-files.ts'
import { dependenciesOf, findJudgment } from '../../../src/core/spec/project.ts'

const spec = (state: string, question = 'q') =>
  `state: [${state}]\nquestions:\n  ${question}: {ask: Is it so?, type: yes_no}\n`

t.test('loads a spec file, selecting it and loading its whole folder', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': spec('message', 'is_spam'),
    'topic.judge.yml': spec('message'),
    'notes.txt': 'x',
  })
  const project = loadProject(join(dir, 'spam.judge.yaml'))
  t.equal(project.path, join(dir, 'spam.judge.yaml'))
  t.equal(project.dir, dir)
  t.same(
    project.selected.map((s) => s.name),
    ['spam'],
  )
  t.same(
    project.specs.map((s) => s.name),
    ['spam', 'topic'],
  )
  t.equal(project.specs[0].file, join(dir, 'spam.judge.yaml'))
})

t.test('loads a folder, selecting every judgment in dependency order', async (t) => {
  const dir = t.testdir({
    'a.judge.yaml': spec('message, b.q'),
    'b.judge.yaml': spec('message'),
    'c.judge.yml': spec('message'),
    nested: { 'd.judge.yaml': spec('message') },
  })
  const project = loadProject(dir)
  t.same(
    project.specs.map((s) => s.name),
    ['b', 'a', 'c'],
  )
  t.same(
    project.selected.map((s) => s.name),
    ['b', 'a', 'c'],
  )
  t.equal(project.dir, dir)
})

t.test('resolves a relative path against the working folder', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m') })
  t.equal(loadProject(join(dir, '..', dir.split('/').pop()!, 'a.judge.yaml')).path, join(dir, 'a.judge.yaml'))
})

t.test('ignores folders and other files that only look like specs', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m'), 'b.judge.yaml': {}, 'c.judge.yaml.bak': 'x', 'd.judge.json': 'x' })
  t.same(
    loadProject(dir).specs.map((s) => s.name),
    ['a'],
  )
})

t.test('rejects a missing path as not found', async (t) => {
  const dir = t.testdir({})
  t.throws(() => loadProject(join(dir, 'nope.judge.yaml')), {
    name: 'NotFoundError',
    status: 404,
    message: `no such file or folder: ${join(dir, 'nope.judge.yaml')}`,
  })
  t.throws(() => loadProject(join(dir, 'nope', 'a.judge.yaml')), { name: 'NotFoundError' })
  t.throws(() => loadProject(join(dir, `${'x'.repeat(5000)}.judge.yaml`)), { name: 'NotFoundError' })
})

t.test('treats a symbolic link in a loop as missing', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m') })
  symlinkSync(join(dir, 'loop.judge.yaml'), join(dir, 'loop.judge.yaml'))
  t.throws(() => loadProject(join(dir, 'loop.judge.yaml')), { name: 'NotFoundError' })
  t.same(
    loadProject(dir).specs.map((s) => s.name),
    ['a'],
  )
})

t.test('rejects a file whose name is not a spec file name', async (t) => {
  const dir = t.testdir({ 'spam.yaml': spec('m') })
  t.throws(() => loadProject(join(dir, 'spam.yaml')), {
    name: 'InputError',
    status: 422,
    message: `${join(dir, 'spam.yaml')} is not a spec file (a spec file's name ends in .judge.yaml or .judge.yml)`,
  })
})

t.test('rejects a folder that holds no spec files', async (t) => {
  const dir = t.testdir({ 'spam.yaml': spec('m'), sub: { 'a.judge.yaml': spec('m') } })
  t.throws(() => loadProject(dir), {
    name: 'InputError',
    message: `${dir} holds no spec files (*.judge.yaml or *.judge.yml)`,
  })
})

t.test('rejects a path holding a NUL byte', async (t) => {
  t.throws(() => loadProject('/tmp/a\0.judge.yaml'), {
    name: 'InputError',
    message: 'a path must not contain a NUL byte',
  })
})

t.test('reports a spec error with the file, the key path and the problem', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': 'state: [m]\nquestions:\n  topic: {ask: x, labels: [a]}\n' })
  const file = join(dir, 'spam.judge.yaml')
  t.throws(() => loadProject(file), {
    name: 'SpecError',
    status: 422,
    exitCode: 2,
    file,
    keyPath: 'questions.topic.labels',
    message: `${file}: questions.topic.labels: needs at least 2 labels`,
  })
})

t.test('rejects a spec file of 1 MiB or more', async (t) => {
  const dir = t.testdir({ 'big.judge.yaml': `${spec('m')}#${'x'.repeat(1024 * 1024)}\n` })
  t.throws(() => loadProject(dir), {
    name: 'SpecError',
    message: `${join(dir, 'big.judge.yaml')}: a spec file must be under 1 MiB`,
  })
})

t.test('judges a selected file while a sibling it does not use is broken', async (t) => {
  const dir = t.testdir({ 'live.judge.yaml': spec('m'), 'draft.judge.yaml': 'state: [m\n' })
  t.same(
    loadProject(join(dir, 'live.judge.yaml')).specs.map((s) => s.name),
    ['live'],
  )
  t.throws(() => loadProject(dir), { name: 'SpecError', file: join(dir, 'draft.judge.yaml') })
})

t.test('follows a symbolic link to a spec file', async (t) => {
  const dir = t.testdir({ real: { 'a.judge.yaml': spec('m') }, project: {} })
  symlinkSync(join(dir, 'real', 'a.judge.yaml'), join(dir, 'project', 'a.judge.yaml'))
  t.same(
    loadProject(join(dir, 'project')).specs.map((s) => s.name),
    ['a'],
  )
})

t.test('lists the transitive dependencies of a judgment, in order', async (t) => {
  const dir = t.testdir({
    'a.judge.yaml': spec('m, c.q, b.q'),
    'b.judge.yaml': spec('m, d.q'),
    'c.judge.yaml': spec('m'),
    'd.judge.yaml': spec('m'),
    'e.judge.yaml': spec('m'),
  })
  const project = loadProject(dir)
  const of = (name: string) => dependenciesOf(project, findJudgment(project, name)).map((s) => s.name)
  t.same(
    project.specs.map((s) => s.name),
    ['c', 'd', 'b', 'a', 'e'],
  )
  t.same(of('a'), ['c', 'd', 'b'])
  t.same(of('b'), ['d'])
  t.same(of('e'), [])
})

t.test('finds a judgment by name, or lists the known ones', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m'), 'b.judge.yaml': spec('m') })
  const project = loadProject(dir)
  t.equal(findJudgment(project, 'b').name, 'b')
  t.throws(() => findJudgment(project, 'spam'), {
    name: 'UsageError',
    status: 400,
    message: 'unknown node "spam"; the judgments here are: a, b',
  })
})

t.test('reuses an unchanged spec without reading it again', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m'), 'b.judge.yaml': spec('m') })
  const file = join(dir, 'a.judge.yaml')
  const then = new Date('2025-01-01T00:00:00Z')
  utimesSync(file, then, then)
  const cache = createSpecCache()
  const first = cache.load(dir)
  const second = cache.load(file)
  t.equal(second.specs[0], first.specs[0])
  t.equal(second.specs[1], first.specs[1])
  // Same size and time: the cache cannot tell, which shows that it did not read the file.
  writeFileSync(file, spec('n'))
  utimesSync(file, then, then)
  t.same(cache.load(dir).specs[0].state, [{ name: 'm' }])
  t.same(loadProject(dir).specs[0].state, [{ name: 'n' }])
})

t.test('reads a changed spec again and keeps the others', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m'), 'b.judge.yaml': spec('m') })
  const cache = createSpecCache()
  const first = cache.load(dir)
  const file = join(dir, 'a.judge.yaml')
  writeFileSync(file, spec('message'))
  utimesSync(file, new Date(), new Date(Date.now() + 5000))
  const second = cache.load(dir)
  t.same(second.specs[0].state, [{ name: 'message' }])
  t.not(second.specs[0].hash, first.specs[0].hash)
  t.equal(second.specs[1], first.specs[1])
})

t.test('sees spec files added to and removed from a folder', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m') })
  const cache = createSpecCache()
  t.same(
    cache.load(dir).specs.map((s) => s.name),
    ['a'],
  )
  writeFileSync(join(dir, 'b.judge.yaml'), spec('m'))
  t.same(
    cache.load(dir).specs.map((s) => s.name),
    ['a', 'b'],
  )
  rmSync(join(dir, 'a.judge.yaml'))
  t.same(
    cache.load(dir).specs.map((s) => s.name),
    ['b'],
  )
  t.throws(() => cache.load(join(dir, 'a.judge.yaml')), { name: 'NotFoundError' })
})

t.test('remembers a broken spec until it changes', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': 'state: [m\n' })
  const cache = createSpecCache()
  const error = t.throws(() => cache.load(dir))
  t.equal(
    t.throws(() => cache.load(dir)),
    error,
  )
  writeFileSync(join(dir, 'a.judge.yaml'), spec('m'))
  utimesSync(join(dir, 'a.judge.yaml'), new Date(), new Date(Date.now() + 5000))
  t.same(
    cache.load(dir).specs.map((s) => s.name),
    ['a'],
  )
})

t.test('a folder listing kept from an earlier load still sees files added and removed later', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m') })
  // A clock well past the folder's last change, so that its listing is kept.
  const cache = createSpecCache({ now: () => Date.now() + 60_000 })
  t.same(
    cache.load(dir).specs.map((s) => s.name),
    ['a'],
  )
  t.same(
    cache.load(join(dir, 'a.judge.yaml')).specs.map((s) => s.name),
    ['a'],
    'the kept listing serves a file of the folder',
  )
  writeFileSync(join(dir, 'b.judge.yaml'), spec('m'))
  t.same(
    cache.load(dir).specs.map((s) => s.name),
    ['a', 'b'],
  )
  rmSync(join(dir, 'a.judge.yaml'))
  t.same(
    cache.load(join(dir, 'b.judge.yaml')).specs.map((s) => s.name),
    ['b'],
  )
})

t.test('an unchanged project loads as the same judgments without being checked again', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': spec('m, b.q'), 'b.judge.yaml': spec('m') })
  const cache = createSpecCache({ now: () => Date.now() + 60_000 })
  const first = cache.load(dir)
  const second = cache.load(dir)
  t.equal(second.specs, first.specs, 'the same judgments, in the same order')
  t.same(
    second.selected.map((s) => s.name),
    ['b', 'a'],
  )
})
