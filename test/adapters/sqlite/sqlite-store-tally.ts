import t from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { configure, migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { answerMethods } from '../../../src/adapters/sqlite/sqlite-store-answers.ts'
import { tallyMethods } from '../../../src/adapters/sqlite/sqlite-store-tally.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'

t.test(
  'answers are counted by margin band and by cell, from the tally when a band is on its grid, else from the answers',
  async (t) => {
    const db = new DatabaseSync(':memory:')
    t.teardown(() => db.close())
    configure(db)
    migrate(db, ':memory:')
    const sql = prepareStatements(db)
    const run = (work: () => void) => {
      db.exec('BEGIN IMMEDIATE')
      work()
      db.exec('COMMIT')
    }
    const answers = answerMethods(sql, run)
    const tally = tallyMethods(sql)
    const margins = [0.1, 0.25, 0.6]
    margins.forEach((margin, i) =>
      answers.putAnswers([answer({ stateHash: `s${i}`, margin, p: (1 + margin) / 2 })], `s${i}`, { message: `m${i}` }),
    )
    t.equal(tally.countAnswers('jev-1', 'fp-spam'), 3, 'every answer')
    t.equal(tally.countAnswers('jev-1', 'fp-spam', { from: 0.2, below: 0.3 }), 1, 'a band on the grid')
    t.equal(tally.countAnswers('jev-1', 'fp-spam', { from: 0.05, below: 0.255 }), 2, 'a band off the grid')
    t.equal(tally.countAnswers('jev-1', 'fp-spam', { from: -Infinity, below: 0.3 }), 2, 'open below')
    t.same(
      tally
        .answerCells('jev-1', 'fp-spam', 'exact')
        .map((c) => c.margin)
        .sort(),
      margins,
    )
    const grid = tally.answerCells('jev-1', 'fp-spam', 'grid')
    t.same(
      grid.map((c) => c.count).reduce((a, b) => a + b, 0),
      3,
    )
    t.ok(
      grid.every((c) => c.label === 'yes' && typeof c.pNanos === 'number'),
      'grid cells carry their label and summed p',
    )
  },
)
