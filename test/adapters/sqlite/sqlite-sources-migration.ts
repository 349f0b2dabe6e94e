import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { sourcesMigration } from '../../../src/adapters/sqlite/sqlite-sources-migration.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'

t.test('the sources step is step 18 of the schema', async (t) => {
  t.equal(sourcesMigration(20).version, 20)
  t.equal(MIGRATIONS.find((m) => m.sql === sourcesMigration(m.version).sql)?.version, 18)
})

/** A store at schema version 17 holding one answer of (state, p, margin) each and one run. */
function storeAt17(file: string, answers: readonly [string, number, number][]): void {
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 17)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 17')
  const put = db.prepare(
    `INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', ?, 'spam', 'is_spam', 'yes', ?, ?, '{}', '2025-01-01T00:00:00', 7, 'jev-1', NULL)`,
  )
  for (const [hash, p, margin] of answers) put.run(hash, p, margin)
  db.exec(`INSERT INTO _judge_runs (run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at, finished_at, cached, requests, seq)
    VALUES ('r1', 'spam', 'h', '', 'jev-1', 1, 1, 0, 'complete', '2025-01-01T00:00:00', '2025-01-01T00:00:01', 0, 1, 1)`)
  db.exec('COMMIT')
  db.close()
}

t.test('a store from before the step keeps its answers, of unknown source, and its tally, in no split', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  storeAt17(file, [
    ['s0', 0.9, 0.8],
    ['s1', 0.873, 0.746],
    ['s2', 0.55, 0.1],
  ])
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.match(store.getAnswers('jev-1', 's0', ['fp-spam']).get('fp-spam'), { source: null, samples: null, dissent: null })
  t.same(store.getRun('r1')?.sources, {})
  t.same(store.countSources('jev-1', 'fp-spam'), {}, 'no source known')
  t.equal(store.answerCells('jev-1', 'fp-spam', 'grid').length, 3, 'the tally kept its cells')
  t.ok(store.answerCells('jev-1', 'fp-spam', 'grid').every((c) => c.split === undefined))
  t.equal(store.countAnswers('jev-1', 'fp-spam', { from: 0.2, below: Infinity, split: false }), 2)
  t.equal(store.countAnswers('jev-1', 'fp-spam', { from: 0, below: Infinity, split: true }), 0)
})

t.test("the rebuilt tally follows answers written and deleted, a jury's split apart", async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  storeAt17(file, [['s0', 0.9, 0.8]])
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  // In the cell of the answer stored before the step (p 0.9, margin 0.8): the split one apart.
  const vote = { p: 0.9, margin: 0.8, source: 'vote', judgment: 'jury' } as const
  store.putAnswers([answer({ ...vote, stateHash: 's1', dissent: 1 })], 's1', {})
  store.putAnswers([answer({ ...vote, stateHash: 's2', dissent: 0 })], 's2', {})
  t.same(
    store.answerCells('jev-1', 'fp-spam', 'grid').map((c) => [c.count, c.split ?? false]),
    [
      [2, false],
      [1, true],
    ],
  )
  t.equal(store.countAnswers('jev-1', 'fp-spam', { from: 0, below: Infinity, split: true }), 1)
  store.deleteAnswers({ judgment: 'jury', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' })
  t.same(
    store.answerCells('jev-1', 'fp-spam', 'grid').map((c) => [c.count, c.split ?? false]),
    [[1, false]],
    'the split cell went with its last answer',
  )
})
