import t from 'tap'
import { linkSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ownedFileAt, storeFiles } from '../../../src/adapters/files/write-target.ts'

t.test('a target is an owned file by its path, through symlinks, or by a hard link', async (t) => {
  const dir = t.testdir({ 'rows.csv': 'a\n1\n', 'other.csv': 'b\n', real: {}, '.judge': { 'store.sqlite': 'db' } })
  const owned = [
    { path: join(dir, 'rows.csv'), what: 'the data file rows.csv' },
    ...storeFiles(join(dir, '.judge/store.sqlite'), 'S'),
  ]
  symlinkSync(join(dir, 'rows.csv'), join(dir, 'link.csv'))
  linkSync(join(dir, 'rows.csv'), join(dir, 'hard.csv'))
  symlinkSync(join(dir, '.judge'), join(dir, 'folder'))
  symlinkSync(join(dir, '.judge/store.sqlite-wal'), join(dir, 'to-wal'))
  symlinkSync('to-wal', join(dir, 'to-to-wal'))
  const what = async (name: string) => (await ownedFileAt(join(dir, name), owned))?.what ?? null
  t.equal(await what('rows.csv'), 'the data file rows.csv')
  t.equal(await what('link.csv'), 'the data file rows.csv', 'through a symlink')
  t.equal(await what('hard.csv'), 'the data file rows.csv', 'through a hard link')
  t.equal(await what('real/../rows.csv'), 'the data file rows.csv', 'by another spelling of its path')
  t.equal(await what('.judge/store.sqlite'), 'the store S')
  t.equal(await what('folder/store.sqlite-shm'), "the store's shared-memory file S-shm", 'a file not made yet')
  t.equal(await what('to-to-wal'), "the store's write-ahead log S-wal", 'a chain of links to a file not made yet')
  t.equal(await what('.judge/store.sqlite-journal'), "the store's rollback journal S-journal")
  t.equal(await what('other.csv'), null)
  t.equal(await what('real/new.csv'), null)
  t.equal(await what('missing/deeper/new.csv'), null, 'in folders not made yet')
})

t.test('a loop of symlinks leads nowhere, and ends', async (t) => {
  const dir = t.testdir({ 'rows.csv': 'a\n' })
  symlinkSync('b', join(dir, 'a'))
  symlinkSync('a', join(dir, 'b'))
  t.equal(await ownedFileAt(join(dir, 'a'), [{ path: join(dir, 'rows.csv'), what: 'the data file' }]), null)
})
