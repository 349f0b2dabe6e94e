import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { reasksMigration } from '../../../src/adapters/sqlite/sqlite-reasks-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { reask } from '../../helpers/contracts/reask-store.ts'

t.test('the re-asks step is step 13 of the schema', async (t) => {
  t.equal(reasksMigration(14).version, 14)
  t.equal(MIGRATIONS.find((m) => m.sql === reasksMigration(m.version).sql)?.version, 13)
})

t.test(
  'a store from before the step keeps its answers, starts with no re-asks, and keeps those made after it',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const db = new DatabaseSync(file)
    db.exec('BEGIN')
    for (const step of MIGRATIONS.filter((m) => m.version <= 12)) db.exec(step.sql)
    db.exec('PRAGMA user_version = 12')
    db.exec('COMMIT')
    db.close()
    const before = openSqliteStore(file)
    before.putAnswers([answer()], 'state-0', { message: 'hi' })
    t.same(before.latestReasks('jev-1', 'fp-spam'), [])
    before.addReasks([reask()])
    before.close()
    const store = openSqliteStore(file)
    t.teardown(() => store.close())
    t.same(store.latestReasks('jev-1', 'fp-spam'), [reask()])
    t.equal(store.countAnswers('jev-1', 'fp-spam'), 1)
  },
)
