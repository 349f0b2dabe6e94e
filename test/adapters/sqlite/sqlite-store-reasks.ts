import t from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { REASK_SQL } from '../../../src/adapters/sqlite/sqlite-store-reasks.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { reaskStoreContract } from '../../helpers/contracts/reask-store.ts'

await reaskStoreContract(t, 'the SQLite store keeps the ReaskStore contract', () => openSqliteStore(':memory:'))

t.test('the latest check of a question is found on the primary key, without a scan of the table', async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  for (const step of MIGRATIONS) db.exec(step.sql)
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${REASK_SQL.latestReasks}`).all('jev-1', 'fp') as { detail: string }[])
    .map((r) => r.detail)
    .join('\n')
  t.notMatch(plan, /SCAN _judge_reasks/, plan)
})
