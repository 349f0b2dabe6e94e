import t from 'tap'
import { stratumRows, type ReviewSource } from '../../src/app/review-source.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { hashOf, putSpam } from '../helpers/spam-answers.ts'
import { spec } from '../helpers/specs.ts'

t.test('a stratum is its size and its first rows in rank order, read only as far as asked', async (t) => {
  const judgment = spec()
  const isSpam = judgment.questions[0]
  const store = createMemoryStore()
  for (let i = 0; i < 30; i++) putSpam(store, isSpam, `m${i}`, i < 10 ? 0.55 : 0.95)
  const source: ReviewSource = { store, model: 'm', spec: judgment, key: new Map(), verdicts: new Map() }
  const unsure = stratumRows(source, isSpam, 'unsure', 4)
  t.equal(unsure.size, 10)
  t.same(
    unsure.rows.map((a) => a.stateHash),
    store
      .sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 4, { from: -Infinity, below: 0.2 })
      .map((a) => a.stateHash),
  )
  t.ok(unsure.rows.every((a) => a.margin < 0.2))
  const confident = stratumRows(source, isSpam, 'confident', 100)
  t.equal(confident.size, 20)
  t.equal(confident.rows.length, 20)
  t.same(stratumRows(source, isSpam, 'confident', 0).rows, [], 'nothing read when nothing is asked for')
  t.notOk(confident.rows.some((a) => a.stateHash === hashOf('m0')))
})
