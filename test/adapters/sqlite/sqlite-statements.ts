import t, { type Test } from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareEach, prepareStatements, SQL, sqlLimit } from '../../../src/adapters/sqlite/sqlite-statements.ts'

/** A migrated in-memory database, closed at teardown. */
function database(t: Test): DatabaseSync {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  migrate(db, ':memory:')
  return db
}

t.test("a limit reads as SQLite's LIMIT: whole, at least 0, and -1 for all", async (t) => {
  t.equal(sqlLimit(50), 50)
  t.equal(sqlLimit(2.7), 2)
  t.equal(sqlLimit(-3), 0)
  t.equal(sqlLimit(Number.NaN), 0)
  t.equal(sqlLimit(Infinity), -1)
})

t.test(
  'every statement is prepared once the schema is there; answers come back as arrays in column order',
  async (t) => {
    const db = database(t)
    const sql = prepareStatements(db)
    t.same(Object.keys(sql), Object.keys(SQL))
    sql.putAnswer.run(
      'm',
      'fp',
      'h',
      'spam',
      'is_spam',
      'yes',
      0.9,
      0.8,
      '{"yes":0.9,"no":0.1}',
      '2026-01-01T00:00:00.000',
      7,
      'm-1.2',
      0.42,
      'samples',
      5,
      null,
    )
    t.same(sql.getAnswers.all('m', 'h'), [
      [
        'm',
        'fp',
        'h',
        'spam',
        'is_spam',
        'yes',
        0.9,
        0.8,
        '{"yes":0.9,"no":0.1}',
        '2026-01-01T00:00:00.000',
        'm-1.2',
        0.42,
        'samples',
        5,
        null,
      ],
    ])
    t.same(sql.countBand.get('m', 'fp', 0, 1), { n: 1 }, 'other statements give objects')
  },
)

t.test('lists of keys travel as one JSON array, and rows come back in the order asked', async (t) => {
  const sql = prepareStatements(database(t))
  for (const h of ['a', 'b', 'c']) sql.putState.run(h, JSON.stringify({ message: h }), '2026-01-01T00:00:00.000')
  t.same(
    sql.getStates.all(JSON.stringify(['c', 'x', 'a'])).map((r) => r.state_hash),
    ['c', 'a'],
  )
})

t.test('answers, states and kept rows are read by index, and the queue lists without sorting', async (t) => {
  const db = database(t)
  const plan = (sql: string) =>
    db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail)
      .join('\n')
  t.match(plan(SQL.getAnswers), /SEARCH a USING PRIMARY KEY \(model=\? AND state_hash=\?\)/)
  t.match(plan(SQL.answersForStates), /SEARCH a USING PRIMARY KEY \(model=\? AND state_hash=\? AND fingerprint=\?\)/)
  t.match(plan(SQL.getStates), /SEARCH s USING PRIMARY KEY \(state_hash=\?\)/)
  t.match(plan(SQL.sampleAnswers), /USING INDEX _judge_answers_sample/)
  t.match(
    plan(SQL.sampleBand),
    /USING INDEX _judge_answers_sample/,
    'a stratum is read in rank order, its margins off the index',
  )
  t.match(plan(SQL.countBand), /USING COVERING INDEX _judge_answers_margin \(.*margin>\? AND margin<\?\)/)
  for (const sql of [SQL.sampleAnswers, SQL.sampleBand, SQL.keptRows]) t.notMatch(plan(sql), /TEMP B-TREE/)
})

t.test("a store part's own statements are prepared by name", async (t) => {
  const db = database(t)
  const st = prepareEach(db, { one: 'SELECT 1 AS n', two: 'SELECT 2 AS n' })
  t.same(Object.keys(st), ['one', 'two'])
  t.same([st.one.get(), st.two.get()], [{ n: 1 }, { n: 2 }])
})
