import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { tallyMigration } from '../../../src/adapters/sqlite/sqlite-tally-migration.ts'
import { gridCells } from '../../../src/core/tally/cells.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'

t.test('the tally step is step 9 of the schema', async (t) => {
  t.equal(tallyMigration(12).version, 12)
  t.equal(MIGRATIONS.find((m) => m.sql === tallyMigration(m.version).sql)?.version, 9)
})

/** A store at schema version 8 holding the given (state, label, p, margin) answers of one question. */
function storeAt8(file: string, answers: readonly [string, string, number, number][]): void {
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 8)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 8')
  const put = db.prepare(
    `INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', ?, 'spam', 'is_spam', ?, ?, ?, '{}', '2025-01-01T00:00:00', 7, 'jev-1', NULL)`,
  )
  for (const [hash, label, p, margin] of answers) put.run(hash, label, p, margin)
  db.exec('COMMIT')
  db.close()
}

t.test('a store from before the step has its answers counted into the tally once, as it opens', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  storeAt8(file, [
    ['s0', 'yes', 0.9, 0.8],
    ['s1', 'yes', 0.873, 0.746],
    ['s2', 'yes', 0.871, 0.742],
    ['s3', 'no', 0.55, 0.1],
  ])
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  const exact = store.answerCells('jev-1', 'fp-spam', 'exact')
  t.equal(exact.length, 4)
  t.same(store.answerCells('jev-1', 'fp-spam', 'grid'), gridCells(exact))
  t.equal(store.answerCells('jev-1', 'fp-spam', 'grid').length, 3)
  t.equal(store.countAnswers('jev-1', 'fp-spam', { from: 0.2, below: Infinity }), 3)
})

t.test('the tally follows every answer written and deleted, and drops a cell whose last answer goes', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  storeAt8(file, [])
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  store.putAnswers([answer({ stateHash: 's0', p: 0.9, margin: 0.8 })], 's0', {})
  store.putAnswers([answer({ stateHash: 's0', p: 0.6, margin: 0.2 })], 's0', {})
  t.same(
    store.answerCells('jev-1', 'fp-spam', 'grid'),
    [{ label: 'yes', p: 0.9, margin: 0.8, count: 1, pNanos: 900_000_000 }],
    'an answer written again is not counted again',
  )
  store.putAnswers([answer({ stateHash: 's1', p: 0.93, margin: 0.86 })], 's1', {})
  const db = new DatabaseSync(file)
  db.prepare("DELETE FROM _judge_answers WHERE state_hash = 's0'").run()
  db.close()
  t.same(
    store.answerCells('jev-1', 'fp-spam', 'grid'),
    [{ label: 'yes', p: 0.93, margin: 0.86, count: 1, pNanos: 930_000_000 }],
    'deleted by another connection',
  )
  t.equal(store.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }), 1)
  t.same(store.answerCells('jev-1', 'fp-spam', 'grid'), [])
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 0)
})
