import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { forgetLogLines, FORGET_SQL } from '../../../src/adapters/sqlite/sqlite-store-forget.ts'
import { storedAt } from '../../../src/adapters/sqlite/sqlite-store-answers.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { pair } from '../../helpers/contracts/kept-store.ts'
import { pragma } from '../../helpers/pragma.ts'

const MARKER = 'forget-me-marker-7f3a9c'

/** How often `text` occurs in a file's raw bytes; 0 for a file that does not exist. */
function occurrences(file: string, text: string): number {
  if (!existsSync(file)) return 0
  const bytes = readFileSync(file)
  let n = 0
  for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + 1)) n++
  return n
}

t.test('a state is stored at the latest time its answers were asked', async (t) => {
  t.equal(
    storedAt([
      answer({ askedAt: '2026-01-02T00:00:00.000' }),
      answer({ askedAt: '2026-01-03T00:00:00.000' }),
      answer({ askedAt: '2026-01-01T00:00:00.000' }),
    ]),
    '2026-01-03T00:00:00.000',
  )
  t.equal(storedAt([]), '')
})

t.test('the forget log lines of a state list each place it was held in, with the count', async (t) => {
  const stamp = { at: '2026-01-01T00:00:00.000', command: 'judge forget --state' }
  t.same(forgetLogLines({ stateHash: 'h', values: true, keptRows: 2 }, stamp), [
    { ...stamp, stateHash: 'h', place: 'values', count: 1 },
    { ...stamp, stateHash: 'h', place: 'kept rows', count: 2 },
  ])
  t.same(forgetLogLines({ stateHash: 'h', values: false, keptRows: 0 }, stamp), [])
})

t.test(
  "a forgotten row's bytes are gone from the store file and its log, among thousands of rows written around it",
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const store = openSqliteStore(file, { batchReads: true })
    t.teardown(() => store.close())
    const long = `${MARKER} ${'a long message that spills over a page '.repeat(200)}`
    for (const [hash, message] of [
      ['state-short', MARKER],
      ['state-long', long],
    ]) {
      store.putAnswers([answer({ stateHash: hash })], hash, { message })
      store.keepRow('spam', hash, { message }, '2026-01-01T00:00:00.000')
      store.recordShadow([pair({ stateHash: hash })])
    }
    // Rows written after move the forgotten ones between pages as the tree splits.
    for (let i = 0; i < 3000; i++)
      store.putAnswers([answer({ stateHash: `state-${i}` })], `state-${i}`, {
        message: `row ${i} ${'x'.repeat(i % 90)}`,
      })
    t.ok(occurrences(file, MARKER) + occurrences(`${file}-wal`, MARKER) >= 2, 'the values were written')
    const forgotten = store.forget(
      { values: ['state-short', 'state-long'], records: ['state-short', 'state-long'] },
      { at: '2026-02-01T00:00:00.000', command: 'test' },
    )
    t.equal(forgotten.states.length, 2)
    t.ok(forgotten.logCleared)
    t.equal(occurrences(file, MARKER), 0, 'not in the file')
    t.equal(occurrences(`${file}-wal`, MARKER), 0, 'not in the log')
    t.equal(existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`).length : 0, 0, 'the log is emptied')
    t.equal(pragma(file, 'integrity_check'), 'ok')
    t.equal(store.getStates(['state-1']).size, 1, 'the other rows stay')
  },
)

t.test('a reader in another connection keeps the log from being emptied; the forgetting still stands', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  store.putAnswers([answer()], 'state-0', { message: MARKER })
  const reader = new DatabaseSync(file, { timeout: 0 })
  t.teardown(() => reader.close())
  reader.exec('PRAGMA busy_timeout = 0')
  reader.exec('BEGIN')
  reader.prepare('SELECT count(*) FROM _judge_states').get()
  const busy = openSqliteStore(file)
  t.teardown(() => busy.close())
  const slow = Date.now()
  const forgotten = busy.forget(
    { values: ['state-0'], records: [] },
    { at: '2026-02-01T00:00:00.000', command: 'test' },
  )
  t.comment(`waited ${Date.now() - slow} ms for the reader`)
  t.same(
    forgotten.states.map((s) => s.stateHash),
    ['state-0'],
  )
  t.equal(forgotten.logCleared, false)
  reader.exec('COMMIT')
  t.equal(store.getStates(['state-0']).size, 0)
  t.same(
    busy.forget({ values: [], records: [] }, { at: '2026-02-01T00:00:00.000', command: 'test' }),
    { states: [], logCleared: true },
    'forgetting again empties it',
  )
  t.equal(occurrences(`${file}-wal`, MARKER), 0)
})

t.test('forgetting finds what it removes by index: states by hash and time stored, kept rows by state', async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  for (const step of MIGRATIONS) db.exec(step.sql)
  const plan = (sql: string) =>
    db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail)
      .join('\n')
  t.match(plan(FORGET_SQL.expiredStates), /SEARCH s USING (COVERING )?INDEX _judge_states_stored \(stored_at<\?\)/)
  t.match(
    plan(FORGET_SQL.expiredStates),
    /SEARCH a USING PRIMARY KEY \(model=\? AND state_hash=\? AND fingerprint=\?\)/,
  )
  t.notMatch(plan(FORGET_SQL.expiredStates), /SCAN a\b/, 'no scan of the answers')
  for (const sql of [FORGET_SQL.heldKept, FORGET_SQL.deleteKept])
    t.match(plan(sql), /_judge_kept_state \(state_hash=\?\)/)
  t.match(plan(FORGET_SQL.deleteValues), /SEARCH _judge_states USING PRIMARY KEY \(state_hash=\?\)/)
})

t.test('forgetting a state releases every hold on its row, whoever holds it, and no other', async (t) => {
  const store = openSqliteStore(join(t.testdir(), 'store.sqlite'), { now: () => 0 })
  t.teardown(() => store.close())
  const row = (stateHash: string) => ({ question: 'is_spam', stateHash, card: '{}' })
  store.putAnswers([answer({ stateHash: 'gone' })], 'gone', { message: MARKER })
  store.holdRows('spam', 'ann', [row('gone'), row('stays'), row('no values')], 0, 1000, 3)
  store.holdRows('spam', 'bob', [row('gone')], 0, 1000, 1)
  store.holdRows('other', 'bob', [row('gone')], 0, 1000, 1)
  store.forget({ values: ['no values'], records: [] }, { at: '2026-01-01T00:00:00.000', command: 'test' })
  t.equal(store.heldRows('spam', 0).length, 2, 'a state the store holds no values of loses its holds too')
  store.forget({ values: ['gone'], records: ['gone'] }, { at: '2026-01-01T00:00:00.000', command: 'test' })
  t.same(
    ['spam', 'other'].flatMap((judgment) => store.heldRows(judgment, 0).map((h) => `${h.reviewer} ${h.stateHash}`)),
    ['ann stays'],
  )
})
