import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import t from 'tap'
import { findStoreFile, storeWriteProblem } from '../../../src/adapters/sqlite/store-location.ts'

/** A `.judge` folder holding a store file, as a fixture entry. */
const store = () => ({ '.judge': { 'store.sqlite': '' } })

t.test('JUDGE_STORE wins over any store found in the folders', async (t) => {
  const dir = t.testdir({ specs: store() })
  const chosen = join(dir, 'elsewhere.sqlite')
  t.equal(findStoreFile(join(dir, 'specs'), { JUDGE_STORE: chosen }), chosen)
})

t.test('a relative JUDGE_STORE is resolved from the working folder', async (t) => {
  t.equal(findStoreFile('/anywhere', { JUDGE_STORE: 'data/my.sqlite' }), resolve('data/my.sqlite'))
})

t.test('an empty JUDGE_STORE counts as unset', async (t) => {
  const dir = t.testdir(store())
  t.equal(findStoreFile(dir, { JUDGE_STORE: '' }), join(dir, '.judge', 'store.sqlite'))
})

t.test('the store in the spec folder itself is found', async (t) => {
  const dir = t.testdir({ ...store(), specs: store() })
  t.equal(findStoreFile(join(dir, 'specs'), {}), join(dir, 'specs', '.judge', 'store.sqlite'))
})

t.test('the nearest store in a folder above is found', async (t) => {
  const dir = t.testdir({ ...store(), project: { ...store(), specs: { spam: {} } } })
  const specs = join(dir, 'project', 'specs', 'spam')
  t.equal(findStoreFile(specs, {}), join(dir, 'project', '.judge', 'store.sqlite'))
})

t.test('a relative spec folder is searched from the working folder', async (t) => {
  const dir = t.testdir({ ...store(), specs: {} })
  t.equal(findStoreFile(relative(process.cwd(), join(dir, 'specs')), {}), join(dir, '.judge', 'store.sqlite'))
})

t.test('a .judge folder without a store file is passed over', async (t) => {
  const dir = t.testdir({ ...store(), specs: { '.judge': { 'other.txt': '' } } })
  t.equal(findStoreFile(join(dir, 'specs'), {}), join(dir, '.judge', 'store.sqlite'))
})

t.test('a folder named store.sqlite is not a store', async (t) => {
  const dir = t.testdir({ ...store(), specs: { '.judge': { 'store.sqlite': {} } } })
  t.equal(findStoreFile(join(dir, 'specs'), {}), join(dir, '.judge', 'store.sqlite'))
})

t.test('a symlinked store file counts as a store', async (t) => {
  const dir = t.testdir({ real: store(), specs: {} })
  mkdirSync(join(dir, 'specs', '.judge'))
  symlinkSync(join(dir, 'real', '.judge', 'store.sqlite'), join(dir, 'specs', '.judge', 'store.sqlite'))
  t.equal(findStoreFile(join(dir, 'specs'), {}), join(dir, 'specs', '.judge', 'store.sqlite'))
})

t.test('with no store anywhere above, the store goes in the spec folder', async (t) => {
  // Outside the project, so that a store someone made in the checkout cannot be found above.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'judge-location-')))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'specs'))
  t.equal(findStoreFile(join(dir, 'specs'), {}), join(dir, 'specs', '.judge', 'store.sqlite'))
})

t.test('the search stops at the filesystem root', async (t) => {
  t.equal(findStoreFile('/', {}), '/.judge/store.sqlite')
})

t.test('a store file is writable when it, or the nearest folder above it that exists, can be written', async (t) => {
  const dir = t.testdir({ ...store(), deep: {}, 'plain.txt': 'x' })
  t.equal(storeWriteProblem(join(dir, '.judge', 'store.sqlite')), null, 'an existing store')
  t.equal(storeWriteProblem(join(dir, 'deep', 'a', 'b', '.judge', 'store.sqlite')), null, 'folders the store will make')
  t.equal(
    storeWriteProblem(join(dir, 'plain.txt', '.judge', 'store.sqlite')),
    `${join(dir, 'plain.txt')} is not a folder`,
  )
  t.equal(storeWriteProblem(join(dir, '.judge')), `${join(dir, '.judge')} is not a file`)
})
