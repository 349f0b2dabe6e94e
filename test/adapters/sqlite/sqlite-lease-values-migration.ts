import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { leaseValuesMigration } from '../../../src/adapters/sqlite/sqlite-lease-values-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

const MARKER = 'zq-held-card-marker-7d2f-Elm-Street'

t.test('the lease values step is step 16 of the schema', async (t) => {
  t.equal(leaseValuesMigration(17).version, 17)
  t.equal(MIGRATIONS.find((m) => m.sql === leaseValuesMigration(m.version).sql)?.version, 16)
})

t.test("a store's held cards lose their row values, bytes and all, and keep the rest", async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 15)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 15')
  const hold = db.prepare(`INSERT INTO _judge_leases VALUES ('spam', 'is_spam', ?, 'ann', 9e15, ?, ?)`)
  hold.run('a', 0, JSON.stringify({ stateHash: 'a', kind: 'unsure', state: { message: MARKER }, verdicts: [] }))
  hold.run('b', 1, `not json ${MARKER}`)
  db.exec('COMMIT')
  db.close()
  t.ok(readFileSync(file).includes(MARKER), 'the old store holds the values')

  const store = openSqliteStore(file, { now: () => 0 })
  t.teardown(() => store.close())
  t.same(
    store.heldRows('spam', 0).map((row) => [row.stateHash, JSON.parse(row.card)]),
    [
      ['a', { stateHash: 'a', kind: 'unsure', verdicts: [] }],
      ['b', {}],
    ],
    'each card without its values; one that does not read, emptied',
  )
  for (const f of [file, `${file}-wal`]) t.notOk(existsSync(f) && readFileSync(f).includes(MARKER), `not in ${f}`)
  const check = new DatabaseSync(file, { readOnly: true })
  t.teardown(() => check.close())
  const plan = check.prepare('EXPLAIN QUERY PLAN DELETE FROM _judge_leases WHERE until <= 1').all()
  t.match(
    plan.map((row) => row.detail).join('\n'),
    /SEARCH _judge_leases USING INDEX _judge_leases_until/,
    'ended holds go by an index',
  )
})
