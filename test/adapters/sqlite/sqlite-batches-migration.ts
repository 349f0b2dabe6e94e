import t from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { batchesMigration } from '../../../src/adapters/sqlite/sqlite-batches-migration.ts'

t.test("the step adds the batches and their items; a batch's items go with it", async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  db.exec('PRAGMA foreign_keys = ON')
  const step = batchesMigration(17)
  t.equal(step.version, 17)
  db.exec(step.sql)
  db.exec(`INSERT INTO _judge_batches VALUES ('t', 'spam', 'run', 'm', NULL, NULL, 'recorded', 0, 0, 0, 0.1,
    '2026-01-01T00:00:00', '2026-01-01T00:00:00', NULL)`)
  db.exec(`INSERT INTO _judge_batch_items VALUES ('t', 'k', 'h', '["fp"]')`)
  t.throws(() => db.exec(`INSERT INTO _judge_batch_items VALUES ('none', 'k', 'h', '[]')`), /FOREIGN KEY/)
  db.exec(`DELETE FROM _judge_batches WHERE tag = 't'`)
  t.equal((db.prepare('SELECT count(*) AS n FROM _judge_batch_items').get() as { n: number }).n, 0)
})
