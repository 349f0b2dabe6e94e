import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { forgetMigration } from '../../../src/adapters/sqlite/sqlite-forget-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the forget step is one numbered step of the schema, version 7, after the epoch step', async (t) => {
  t.equal(forgetMigration(9).version, 9)
  const step = MIGRATIONS.find((m) => m.sql === forgetMigration(m.version).sql)
  t.equal(step?.version, 7)
})

t.test(
  'a store from before the step dates each state by its latest answer or kept row, and expires by that',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const db = new DatabaseSync(file)
    db.exec('BEGIN')
    for (const step of MIGRATIONS.filter((m) => m.version <= 6)) db.exec(step.sql)
    db.exec('PRAGMA user_version = 6')
    const answer = db.prepare(
      `INSERT INTO _judge_answers VALUES ('jev-1', ?, ?, 'spam', 'is_spam', 'yes', 0.9, 0.8, '{"yes":0.9,"no":0.1}', ?, 7, 'jev-1')`,
    )
    answer.run('fp-spam', 'state-a', '2025-01-01T00:00:00.000')
    answer.run('fp-topic', 'state-a', '2025-03-01T00:00:00.000')
    answer.run('fp-spam', 'state-b', '2025-01-01T00:00:00.000')
    db.prepare(
      "INSERT INTO _judge_kept VALUES ('spam', 'state-b', '2025-01-01T00:00:00.000', '2025-06-01T00:00:00.000', 3)",
    ).run()
    for (const hash of ['state-a', 'state-b', 'state-c'])
      db.prepare('INSERT INTO _judge_states VALUES (?, ?)').run(hash, JSON.stringify({ message: hash }))
    db.exec('COMMIT')
    db.close()
    const store = openSqliteStore(file)
    t.teardown(() => store.close())
    t.same(store.getStates(['state-a', 'state-b', 'state-c']).size, 3, 'every state keeps its values')
    t.same(
      store.expiredStates('spam', ['fp-spam'], '2025-03-01T00:00:00.000'),
      [],
      'state-a was last stored with its topic answer',
    )
    t.same(store.expiredStates('spam', ['fp-spam'], '2025-03-01T00:00:00.001'), ['state-a'])
    t.same(
      store.expiredStates('spam', ['fp-spam'], '2025-06-01T00:00:00.001'),
      ['state-a', 'state-b'],
      'state-b by its kept row',
    )
    t.same(
      store.expiredStates('spam', ['fp-spam'], '2030-01-01T00:00:00.000'),
      ['state-a', 'state-b'],
      "a state no answer or kept row names is no judgment's",
    )
    t.same(store.forgottenLines(), [], 'the forget log starts empty')
  },
)
