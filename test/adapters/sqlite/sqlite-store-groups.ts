import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DatabaseSync } from 'node:sqlite'
import { configure, migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { cacheMethods } from '../../../src/adapters/sqlite/sqlite-store-cache.ts'
import { forgetMethods } from '../../../src/adapters/sqlite/sqlite-store-forget.ts'
import {
  cacheMethodsOnUse,
  forgetMethodsOnUse,
  onFirstUse,
  recordMethodsOnUse,
  runMethodsOnUse,
  tallyMethodsOnUse,
} from '../../../src/adapters/sqlite/sqlite-store-groups.ts'
import { recordMethods } from '../../../src/adapters/sqlite/sqlite-store-records.ts'
import { runMethods } from '../../../src/adapters/sqlite/sqlite-store-runs.ts'
import { tallyMethods } from '../../../src/adapters/sqlite/sqlite-store-tally.ts'
import { ROOT } from '../../helpers/cli.ts'

t.test(
  'a group is created on the first call of any of its methods, once, and each call reaches the created method',
  async (t) => {
    let created = 0
    const group = onFirstUse({ add: true, name: true }, () => {
      created++
      return { add: (a: number, b: number) => a + b, name: () => `group ${created}` }
    })
    t.equal(created, 0, 'nothing created before a call')
    t.equal(group.add(2, 3), 5)
    t.equal(group.name(), 'group 1')
    t.equal(created, 1)
  },
)

t.test('each group on first use has the methods of the group it stands for, and answers as it does', async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  configure(db)
  migrate(db, ':memory:')
  const sql = prepareStatements(db)
  const run = (work: () => void) => {
    db.exec('BEGIN IMMEDIATE')
    work()
    db.exec('COMMIT')
  }
  const keys = (group: object) => Object.keys(group).sort()
  t.same(keys(runMethodsOnUse(sql, run)), keys(runMethods(sql, run)), 'runs')
  t.same(keys(recordMethodsOnUse(sql, run)), keys(recordMethods(sql, run)), 'kept rows')
  t.same(keys(forgetMethodsOnUse(db, sql, run)), keys(forgetMethods(db, sql, run)), 'forgetting')
  t.same(keys(cacheMethodsOnUse(sql, run)), keys(cacheMethods(sql, run)), 'cache')
  t.same(keys(tallyMethodsOnUse(sql)), keys(tallyMethods(sql)), 'tally')
  t.same(runMethodsOnUse(sql, run).latestRuns(), [])
  t.same(recordMethodsOnUse(sql, run).keptRows('spam'), [])
  t.same(forgetMethodsOnUse(db, sql, run).forgottenLines(), [])
  t.equal(cacheMethodsOnUse(sql, run).answersEpoch(), 0)
  t.equal(tallyMethodsOnUse(sql).countAnswers('jev-1', 'fp'), 0)
})

t.test('opening a current store loads no migration and no group until one of its methods is called', async (t) => {
  const dir = t.testdir({})
  const file = join(dir, 'store.sqlite')
  const store = pathToFileURL(resolve(ROOT, 'src/adapters/sqlite/sqlite-store.ts')).href
  const script = `import { openSqliteStore } from ${JSON.stringify(store)}
const opened = openSqliteStore(${JSON.stringify(file)})
if (process.argv[1] === 'runs') opened.latestRuns()
opened.close()`
  const loaded = (arg: string) => {
    const record = join(dir, `${arg}.modules`)
    const child = spawnSync(
      process.execPath,
      ['--import', resolve(ROOT, 'test/helpers/module-record.ts'), '--input-type=module', '-e', script, arg],
      {
        env: { PATH: process.env.PATH, MODULE_RECORD: record },
        encoding: 'utf8',
      },
    )
    t.equal(child.status, 0, child.stderr)
    return readFileSync(record, 'utf8')
      .split('\n')
      .filter((url) => url.includes('/src/adapters/sqlite/'))
      .map((url) => url.slice(url.lastIndexOf('/') + 1))
  }
  const groups = (files: readonly string[]) =>
    files.filter((f) => /^sqlite-store-(runs|records|forget|cache|tally)\.ts$/.test(f) || f === 'answer-cache.ts')
  const created = loaded('create')
  t.ok(
    created.includes('sqlite-schema.ts') && created.includes('sqlite-base-migrations.ts'),
    'creating the store migrates it',
  )
  t.same(groups(created), [], 'and loads no group')
  const opened = loaded('open')
  t.same(
    opened.filter((f) => f === 'sqlite-schema.ts' || f.endsWith('-migration.ts') || f.endsWith('-migrations.ts')),
    [],
    'a current store loads no migration',
  )
  t.same(groups(opened), [])
  t.ok(loaded('runs').includes('sqlite-store-runs.ts'), 'a run method loads the runs group')
})
