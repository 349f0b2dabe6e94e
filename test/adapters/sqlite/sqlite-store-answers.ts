import t, { type Test } from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { configure, migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { answerMethods } from '../../../src/adapters/sqlite/sqlite-store-answers.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'

function methods(t: Test) {
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
  return { db, answers: answerMethods(sql, run) }
}

t.test('an answer is written with its option mass and reported model, and read back as written', async (t) => {
  const { answers } = methods(t)
  const written = answer({ optionMass: 0.61 })
  t.same(answers.putAnswers([written], 'state-0', { message: 'hi' }), [written])
  t.same(answers.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam'), written)
})

t.test(
  'an answer stored before the reported model and the option mass were kept reads the model asked and null',
  async (t) => {
    const { db, answers } = methods(t)
    db.exec(`INSERT INTO _judge_answers (model, fingerprint, state_hash, judgment, question, label, p, margin, distribution, asked_at, sample_rank)
    VALUES ('jev-1', 'fp-spam', 'state-0', 'spam', 'is_spam', 'yes', 0.8, 0.6, '{"yes":0.8,"no":0.2}', '2025-01-01T00:00:00', 1)`)
    t.match(answers.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam'), {
      reportedModel: 'jev-1',
      optionMass: null,
    })
  },
)
