import t from 'tap'
import { figuresOf, latestStability } from '../../src/app/stability-latest.ts'
import { app, deps } from '../helpers/deps.ts'
import { reask } from '../helpers/contracts/reask-store.ts'
import { project, spec } from '../helpers/specs.ts'

const SPAM = spec()
const FP = SPAM.questions[0].fingerprint

t.test('the latest check of each question is read from the store; a question never checked is null', async (t) => {
  const d = deps(null)
  d.store.addReasks([
    reask({ model: 'jev-test', fingerprint: FP, check: '2026-01-01', label: 'yes' }),
    reask({ model: 'jev-test', fingerprint: FP, check: '2026-02-01', label: 'no' }),
  ])
  const figures = latestStability(app(d), project(SPAM), SPAM)!
  t.equal(figures.is_spam!.checked_at, '2026-02-01')
  t.equal(figures.is_spam!.flip_rate!.point, 1)
  t.equal(figures.topic, null)
})

t.test('figures can be made from any re-asks of a question, against every answer the store holds', async (t) => {
  const d = deps(null)
  const figures = figuresOf(d.store, SPAM, 'jev-test', (fp) => (fp === FP ? [reask({ fingerprint: FP })] : []))
  t.match(figures.is_spam, { reasked: 1, near_threshold: { answers: 0, count: 0 } })
  t.equal(figures.urgency, null)
})

t.test("a question never checked reads none of the store's answers", async (t) => {
  const d = deps(null)
  const store = Object.assign(Object.create(d.store), {
    answerCells: () => {
      t.fail('the answer cells were read')
      return []
    },
  })
  const figures = figuresOf(store, SPAM, 'jev-test', () => [])
  t.same(Object.values(figures), [null, null, null])
})
