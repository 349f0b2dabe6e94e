import t from 'tap'
import { hasJury, isJury, JURY_PREFIX, jurorModelsOf, juryModelId, seatJurors } from '../../../src/core/jury/jurors.ts'

t.test("a jury's id joins its jurors' model ids, each as the engine that asks it names its answers", async (t) => {
  const simulated = { modelId: (m: string) => `simulated-${m}` }
  const seated = seatJurors(
    [
      { model: 'a', engine: null },
      { model: 'b', engine: 'simulated' },
      { model: 'c', engine: 'anthropic' },
    ],
    (j) => (j.engine === 'simulated' ? simulated : j.engine === 'anthropic' ? null : {}),
  )
  t.same(
    seated.map((s) => s.model),
    ['a', 'simulated-b', 'c'],
  )
  t.equal(juryModelId(seated), `${JURY_PREFIX}a+simulated-b+c`)
  t.ok(isJury(juryModelId(seated)))
  t.notOk(isJury('jev-1'))
})

t.test('a spec has a jury when it names jurors', async (t) => {
  t.notOk(hasJury({ jurors: null }))
  t.notOk(hasJury({ jurors: [] }))
  t.ok(hasJury({ jurors: [{ model: 'a', engine: null }] }))
})

t.test("a jury's model id gives back its jurors' ids; one model's gives none", async (t) => {
  const seated = ['simulated-a', 'gpt-4.1-mini'].map((model) => ({ juror: { model, engine: null }, model }))
  t.same(jurorModelsOf(juryModelId(seated)), ['simulated-a', 'gpt-4.1-mini'])
  t.equal(jurorModelsOf('gpt-4.1-mini'), null)
})
