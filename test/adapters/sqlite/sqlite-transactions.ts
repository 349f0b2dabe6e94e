import t, { type Test } from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { prepareStatements, type Statements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { configure, migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { readSnapshot, rollback, writeTransaction } from '../../../src/adapters/sqlite/sqlite-transactions.ts'
import { damagePages } from '../../helpers/damage.ts'

/** A migrated store file with a few rows, and its connection and statements. */
function storeDb(t: Test, file = ':memory:'): { db: DatabaseSync; sql: Statements } {
  const db = new DatabaseSync(file)
  configure(db)
  migrate(db, file)
  t.teardown(() => db.isOpen && db.close())
  return { db, sql: prepareStatements(db) }
}

const count = (db: DatabaseSync) => (db.prepare('SELECT count(*) AS n FROM _judge_meta').get() as { n: number }).n

t.test('a write transaction saves all of its work, or none of it when any part fails', async (t) => {
  const { db, sql } = storeDb(t)
  const transaction = writeTransaction(db, sql, null)
  const before = count(db)
  transaction(() => db.exec("INSERT INTO _judge_meta (key, value) VALUES ('a', 1)"))
  t.equal(count(db), before + 1)
  t.throws(
    () =>
      transaction(() => {
        db.exec("INSERT INTO _judge_meta (key, value) VALUES ('b', 1)")
        throw new Error('midway')
      }),
    /midway/,
  )
  t.equal(count(db), before + 1, 'nothing of the failed one')
  t.notOk(db.isTransaction, 'and no transaction is left open')
})

t.test('a store that takes no writes refuses before anything begins', async (t) => {
  const { db, sql } = storeDb(t)
  let ran = false
  const transaction = writeTransaction(db, sql, null, () => new Error('read-only'))
  t.throws(() => transaction(() => (ran = true)), /read-only/)
  t.notOk(ran)
  t.notOk(db.isTransaction)
})

t.test("a write ends the turn's read transaction first, so that it can take the write lock", async (t) => {
  const { db, sql } = storeDb(t)
  const snapshot = readSnapshot(db, sql)
  const read = snapshot.wrap(() => count(db))
  read()
  t.ok(db.isTransaction, "the read opened the turn's transaction")
  writeTransaction(db, sql, snapshot)(() => db.exec("INSERT INTO _judge_meta (key, value) VALUES ('c', 1)"))
  t.notOk(db.isTransaction)
  snapshot.end()
})

t.test('a read run once per read transaction gives its first value until the transaction ends', async (t) => {
  const { db, sql } = storeDb(t)
  const snapshot = readSnapshot(db, sql)
  let runs = 0
  const once = snapshot.once(() => ++runs)
  t.equal(once(), 1)
  t.equal(once(), 1, 'the same transaction: the value it gave')
  snapshot.end()
  t.equal(once(), 2, 'the next transaction: read again')
  snapshot.end()
  db.exec('BEGIN IMMEDIATE')
  t.equal(once(), 3, 'inside a write, which no snapshot shares')
  t.equal(once(), 4, 'read at each call')
  db.exec('COMMIT')
})

t.test(
  "the turn's read transaction ends at the next turn, even on a damaged file, and never throws there",
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const { db } = storeDb(t, file)
    for (let i = 0; i < 300; i++)
      db.exec(`INSERT INTO _judge_states (state_hash, state, stored_at) VALUES ('h${i}', '${'x'.repeat(200)}', '')`)
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    db.close()
    // A connection that has read the schema, as a serving process has, when the file is damaged under it.
    const reader = new DatabaseSync(file)
    t.teardown(() => reader.close())
    const sql = prepareStatements(reader)
    const statement = reader.prepare("SELECT count(*) AS n FROM _judge_states WHERE state LIKE '%y%'")
    t.ok(damagePages(file).pages > 5)
    const damaged = readSnapshot(reader, sql)
    const readDamaged = damaged.wrap(() => statement.get())
    t.throws(readDamaged, /malformed/)
    // The end was scheduled with setImmediate: had it thrown, the process would end here.
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))
    t.notOk(reader.isTransaction, 'the transaction is over')
    t.throws(readDamaged, /malformed/, 'the next turn reads again, and meets the damage again')
    t.doesNotThrow(() => damaged.end(), 'ending it at once does not throw either')
    t.notOk(reader.isTransaction)
  },
)

t.test(
  'a rollback with no transaction open, or on a closed connection, does nothing; one that fails is swallowed',
  async (t) => {
    const { db, sql } = storeDb(t)
    t.doesNotThrow(() => rollback(db, sql))
    db.exec('BEGIN')
    const failing = {
      ...sql,
      rollback: {
        run: () => {
          throw new Error('cannot roll back')
        },
      },
    } as unknown as Statements
    t.doesNotThrow(() => rollback(db, failing))
    db.exec('ROLLBACK')
    db.close()
    t.doesNotThrow(() => rollback(db, sql))
  },
)
