import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DatabaseSync } from 'node:sqlite'
import { configure, migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { STORE_METHODS, storeMethods } from '../../../src/adapters/sqlite/sqlite-store-groups.ts'
import { ROOT } from '../../helpers/cli.ts'

t.test('every method of the port has a group and a kind, and the methods made are exactly those', async (t) => {
  t.ok(Object.values(STORE_METHODS).every(({ kind }) => kind === 'read' || kind === 'write'))
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  configure(db)
  migrate(db, ':memory:')
  const sql = prepareStatements(db)
  const transaction = (work: () => void) => {
    db.exec('BEGIN IMMEDIATE')
    work()
    db.exec('COMMIT')
  }
  const kept = { answers: 0 }
  const methods = storeMethods({ db, sql, transaction, readOnly: false, kept })
  t.same(Object.keys(methods).sort(), Object.keys(STORE_METHODS).sort())
  t.same(methods.latestRuns(), [], 'each calls its group: runs')
  t.same(methods.keptRows('spam'), [], 'kept rows')
  t.same(methods.forgottenLines(), [], 'forgetting')
  t.same(methods.answerGroups(), [], 'cache')
  t.equal(methods.countAnswers('jev-1', 'fp'), 0, 'tally')
  t.same(methods.latestReasks('jev-1', 'fp'), [], 're-asks')
  t.same(methods.heldRows('spam', 0), [], 'holds')
  t.equal(methods.writeMark(), methods.writeMark(), 'the write mark stands while nothing is written')
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
