import t from 'tap'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { createFile, linkNew, nameTaken, openReplacement, replaceFile } from '../../../src/adapters/files/safe-write.ts'

const temps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'))
const failing = (code: string) => async () => {
  throw Object.assign(new Error(`${code}: mocked`), { code })
}

t.test('replaceFile puts the new bytes in place whole, with the old file mode, through a symlink', async (t) => {
  const dir = t.testdir({ 'a.csv': 'old\n', real: { 'b.csv': 'old b\n' } })
  chmodSync(join(dir, 'a.csv'), 0o640)
  await replaceFile(join(dir, 'a.csv'), 'new\n')
  t.equal(readFileSync(join(dir, 'a.csv'), 'utf8'), 'new\n')
  t.equal(statSync(join(dir, 'a.csv')).mode & 0o777, 0o640, 'the mode is kept')
  await replaceFile(join(dir, 'fresh.csv'), Buffer.from('made\n'))
  t.equal(readFileSync(join(dir, 'fresh.csv'), 'utf8'), 'made\n', 'a file not there yet is made')
  symlinkSync(join(dir, 'real/b.csv'), join(dir, 'b.csv'))
  await replaceFile(join(dir, 'b.csv'), 'new b\n')
  t.equal(readFileSync(join(dir, 'real/b.csv'), 'utf8'), 'new b\n', 'the file the link names is replaced')
  t.ok(nameTaken(join(dir, 'b.csv')) && existsSync(join(dir, 'b.csv')), 'and the link stays')
  mkdirSync(join(dir, 'folder'))
  await t.rejects(replaceFile(join(dir, 'folder'), 'x'), { code: /EISDIR|ENOTEMPTY|EEXIST/ })
  t.same(temps(dir), [], 'no file is left beside them')
  t.same(temps(join(dir, 'real')), [])
})

t.test('openReplacement streams beside the target and puts it in place only when placed', async (t) => {
  const dir = t.testdir({ 'out.csv': 'old\n' })
  const file = join(dir, 'out.csv')
  const kept = openReplacement(file)
  kept.write('a\n')
  kept.write('b\n')
  t.equal(readFileSync(file, 'utf8'), 'old\n', 'the target is as it was while the file is written')
  await kept.place()
  t.equal(readFileSync(file, 'utf8'), 'a\nb\n')
  const dropped = openReplacement(file)
  dropped.write('c\n')
  await dropped.discard()
  t.equal(readFileSync(file, 'utf8'), 'a\nb\n', 'a dropped file leaves the target')
  const nowhere = openReplacement(join(dir, 'missing/out.csv'))
  nowhere.write('d\n')
  await t.rejects(nowhere.place(), { code: 'ENOENT' }, 'a file that cannot be written is not placed')
  mkdirSync(join(dir, 'folder'))
  const onFolder = openReplacement(join(dir, 'folder'))
  await t.rejects(onFolder.place(), { code: /EISDIR|ENOTEMPTY|EEXIST/ })
  t.same(temps(dir), [], 'no file is left beside it')
})

t.test('createFile never replaces an entry, a dangling symlink included', async (t) => {
  const dir = t.testdir({ 'taken.yaml': 'mine\n' })
  t.equal(await createFile(join(dir, 'new.yaml'), 'a: 1\n'), true)
  t.equal(readFileSync(join(dir, 'new.yaml'), 'utf8'), 'a: 1\n')
  t.equal(await createFile(join(dir, 'taken.yaml'), 'theirs\n'), false)
  t.equal(readFileSync(join(dir, 'taken.yaml'), 'utf8'), 'mine\n')
  symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'link.yaml'))
  t.ok(nameTaken(join(dir, 'link.yaml')), 'a dangling symlink takes its name')
  t.notOk(nameTaken(join(dir, 'free.yaml')))
  t.equal(await createFile(join(dir, 'link.yaml'), 'x\n'), false)
  t.notOk(existsSync(join(dir, 'nowhere.yaml')), 'nothing is written through it')
  await t.rejects(createFile(join(dir, 'missing/a.yaml'), 'x'), { code: 'ENOENT' })
  t.same(temps(dir), [], 'no file is left beside them')
})

t.test('on a file system without hard links the new file is copied in, still never over one', async (t) => {
  const dir = t.testdir({ 'taken.yaml': 'mine\n', 'temp.yaml': 'a: 1\n' })
  const temp = join(dir, 'temp.yaml')
  t.equal(await linkNew(temp, join(dir, 'new.yaml'), failing('EPERM')), true)
  t.equal(readFileSync(join(dir, 'new.yaml'), 'utf8'), 'a: 1\n')
  t.equal(await linkNew(temp, join(dir, 'taken.yaml'), failing('ENOTSUP')), false)
  t.equal(readFileSync(join(dir, 'taken.yaml'), 'utf8'), 'mine\n')
  await t.rejects(linkNew(temp, join(dir, 'other.yaml'), failing('EACCES')), { code: 'EACCES' })
  await t.rejects(linkNew(join(dir, 'gone.yaml'), join(dir, 'other.yaml'), failing('EPERM')), { code: 'ENOENT' })
  t.notOk(existsSync(join(dir, 'other.yaml')))
})
