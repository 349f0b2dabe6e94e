import t from 'tap'
import { join } from 'node:path'
import { specFiles, specFolders } from '../../src/http/folders.ts'

const SPEC = 'state: [m]\nquestions:\n  q: {ask: Q?, type: yes_no}\n'

t.test('folders holding specs are found at every level, sorted with the root first', async (t) => {
  const dir = t.testdir({
    'a.judge.yaml': SPEC,
    b: { 'x.judge.yml': SPEC, c: { 'y.judge.yaml': SPEC } },
    a: { 'z.judge.yaml': SPEC },
    plain: { 'notes.txt': '' },
  })
  t.same(specFolders(dir), ['.', 'a', 'b', 'b/c'])
})

t.test('the spec files served are listed folder by folder, relative to the root, up to a limit', async (t) => {
  const dir = t.testdir({
    'a.judge.yaml': SPEC,
    b: { 'x.judge.yml': SPEC, 'notes.txt': '', c: { 'y.judge.yaml': SPEC } },
  })
  t.same(specFiles(dir), ['a.judge.yaml', 'b/x.judge.yml', 'b/c/y.judge.yaml'])
  t.same(specFiles(dir, 2), ['a.judge.yaml', 'b/x.judge.yml'])
})

t.test('the walk stops at the depth and folder limits', async (t) => {
  const dir = t.testdir({
    one: { 's.judge.yaml': SPEC, two: { 's.judge.yaml': SPEC, three: { 's.judge.yaml': SPEC } } },
    other: { 's.judge.yaml': SPEC },
  })
  t.same(specFolders(dir, { depth: 2, folders: 100 }), ['one', 'one/two', 'other'])
  t.same(specFolders(dir, { depth: 8, folders: 2 }), ['one', 'other'])
})

t.test('a root that cannot be read holds nothing', async (t) => {
  const dir = t.testdir({ 'a-file': 'x' })
  t.same(specFolders(join(dir, 'nope')), [])
  t.same(specFolders(join(dir, 'a-file')), [])
})
