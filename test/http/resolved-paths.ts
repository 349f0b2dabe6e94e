import t from 'tap'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSpecCache } from '../../src/adapters/files/spec-files.ts'
import { findStoreFile } from '../../src/adapters/sqlite/store-location.ts'
import { createResolvedPaths, REVALIDATE_MS } from '../../src/http/resolved-paths.ts'

const SPEC = 'state: [m]\nquestions:\n  q: {ask: Q?, type: yes_no}\n'
const ACT = (route: string) => `${SPEC}act:\n  q:\n    - route: ${route}\n`

function paths(root: string, max?: number, markOf?: () => number) {
  return createResolvedPaths({
    root,
    specs: createSpecCache(),
    storeFileFor: (dir) => findStoreFile(dir, {}),
    max,
    ...(markOf ? { markOf } : {}),
  })
}

t.test('a path is checked against the disk at most once per revalidation time, and then fully', async (t) => {
  const root = t.testdir({ project: { 'a.judge.yaml': SPEC } })
  const resolved = paths(root)
  const first = resolved.load('project/a.judge.yaml', 'path', 0)
  t.equal(first.project.selected[0].name, 'a')
  t.equal(
    first.storeFile,
    join(root, 'project', '.judge', 'store.sqlite'),
    'the store beside the spec, where none exists yet',
  )
  rmSync(join(root, 'project', 'a.judge.yaml'))
  t.equal(
    resolved.load('project/a.judge.yaml', 'path', REVALIDATE_MS - 1),
    first,
    'within the time, the disk is not looked at',
  )
  t.ok(resolved.fresh(first, REVALIDATE_MS - 1))
  t.notOk(resolved.fresh(first, REVALIDATE_MS))
  t.throws(
    () => resolved.load('project/a.judge.yaml', 'path', REVALIDATE_MS),
    { name: 'NotFoundError' },
    'after it, the file is found gone',
  )
  t.notOk(first.current, 'and the old resolution no longer stands')
  t.notOk(resolved.fresh(first, 0))
})

t.test('an unchanged path keeps its resolution; an edited spec or a new store makes a new one', async (t) => {
  const root = t.testdir({ project: { 'a.judge.yaml': ACT('first') } })
  const resolved = paths(root)
  const first = resolved.load('project', 'path', 0)
  const again = resolved.load('project', 'path', REVALIDATE_MS)
  t.equal(again, first, 'unchanged on disk: the same resolution, trusted anew')
  t.equal(again.checkedAt, REVALIDATE_MS)
  writeFileSync(join(root, 'project', 'a.judge.yaml'), ACT('second'))
  t.equal(resolved.load('project', 'path', 2 * REVALIDATE_MS - 1), first, 'the edit is not seen within the time')
  const edited = resolved.load('project', 'path', 2 * REVALIDATE_MS)
  t.not(edited, first)
  t.notOk(first.current)
  t.same(
    edited.project.selected[0].act.q.map((rule) => rule.route),
    ['second'],
    'the edit is seen after it',
  )
  mkdirSync(join(root, '.judge'))
  writeFileSync(join(root, '.judge', 'store.sqlite'), '')
  const moved = resolved.load('project', 'path', 3 * REVALIDATE_MS)
  t.equal(moved.storeFile, join(root, '.judge', 'store.sqlite'), 'a store made above is found at the next check')
  t.notOk(edited.current)
})

t.test('a write to the store (its write mark moved) make a new resolution at the next check, not before', async (t) => {
  const root = t.testdir({ project: { 'a.judge.yaml': SPEC } })
  let epoch = 3
  let reads = 0
  const resolved = paths(root, undefined, () => (reads++, epoch))
  const first = resolved.load('project', 'path', 0)
  t.equal(first.mark, 3)
  t.equal(resolved.load('project', 'path', REVALIDATE_MS), first, 'the same mark: the same resolution')
  t.equal(reads, 2, 'the mark is read at each check')
  epoch = 4
  t.equal(resolved.load('project', 'path', 2 * REVALIDATE_MS - 1), first, 'not looked at within the time')
  t.equal(reads, 2)
  const pruned = resolved.load('project', 'path', 2 * REVALIDATE_MS)
  t.not(pruned, first)
  t.notOk(first.current, 'what was made from the old resolution is stale')
  t.equal(pruned.mark, 4)
})

t.test('each resolution that stops being current is told, whatever made it stale', async (t) => {
  const root = t.testdir({ 'a.judge.yaml': SPEC, 'b.judge.yaml': SPEC })
  let epoch = 0
  let told = 0
  const resolved = createResolvedPaths({
    root,
    specs: createSpecCache(),
    storeFileFor: (dir) => findStoreFile(dir, {}),
    max: 1,
    markOf: () => epoch,
    onStale: () => told++,
  })
  resolved.load('a.judge.yaml', 'path', 0)
  resolved.load('a.judge.yaml', 'path', REVALIDATE_MS)
  t.equal(told, 0, 'unchanged: nothing is stale')
  epoch = 1
  resolved.load('a.judge.yaml', 'path', 2 * REVALIDATE_MS)
  t.equal(told, 1, 'the epoch moved (rows forgotten, answers pruned)')
  resolved.load('b.judge.yaml', 'path', 2 * REVALIDATE_MS)
  t.equal(told, 2, 'pushed out by the bound')
  rmSync(join(root, 'b.judge.yaml'))
  t.throws(() => resolved.load('b.judge.yaml', 'path', 3 * REVALIDATE_MS))
  t.equal(told, 3, 'gone from the disk')
  t.doesNotThrow(() => paths(root).load('a.judge.yaml', 'path', 0), 'without a listener, nobody is told')
})

t.test('a refused path is not remembered, and a link planted later is refused at the next check', async (t) => {
  const base = t.testdir({ root: { 'a.judge.yaml': SPEC }, outside: { 'x.judge.yaml': SPEC } })
  const root = join(base, 'root')
  const resolved = paths(root)
  t.equal(resolved.load('a.judge.yaml', 'path', 0).project.selected[0].name, 'a')
  symlinkSync(join(base, 'outside', 'x.judge.yaml'), join(root, 'x.judge.yaml'))
  t.throws(() => resolved.load('x.judge.yaml', 'path', 0), { status: 403, message: /leads outside/ })
  t.throws(
    () => resolved.load('x.judge.yaml', 'path', 1),
    { status: 403, message: /leads outside/ },
    'refused again: a refusal is not kept',
  )
  t.throws(
    () => resolved.load('a.judge.yaml', 'path', REVALIDATE_MS),
    { status: 403, message: /beside it links outside/ },
    'the link beside it is found at the next check',
  )
  t.throws(() => resolved.load(7, 'path', 0), { status: 400, message: /must be a string/ })
  t.throws(() => resolved.load('../x', 'shadow', 0), { status: 403, message: /^shadow/ })
})

t.test('beyond its bound, the oldest path is forgotten', async (t) => {
  const root = t.testdir({ 'a.judge.yaml': SPEC, 'b.judge.yaml': SPEC })
  const resolved = paths(root, 1)
  const a = resolved.load('a.judge.yaml', 'path', 0)
  const b = resolved.load('b.judge.yaml', 'path', 0)
  t.notOk(a.current, 'a is forgotten')
  t.ok(b.current)
  t.not(resolved.load('a.judge.yaml', 'path', 0), a, 'and loaded anew')
})
