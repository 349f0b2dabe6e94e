import t from 'tap'
import { modelText } from '../../src/cli/model-text.ts'

t.test("the model read is named; other models' answers come with the setting that reads them", async (t) => {
  t.equal(modelText([{ judgment: 'a', model: 'm', answers: 1, others: [] }]), 'a: answers of model m\n')
  t.equal(
    modelText([{ judgment: 'a', model: null, answers: 0, others: [] }]),
    "a: answers of model the engine's default (no store yet)\n",
  )
  t.equal(
    modelText([
      {
        judgment: 'a',
        model: 'm',
        answers: 1,
        others: [
          { model: 'simulated-1', answers: 3 },
          { model: 'old', answers: 1 },
        ],
      },
    ]),
    'a: answers of model m; the store also holds answers to these questions from other models: 3 of simulated-1 (ENGINE=simulated reads them), 1 of old (ENGINE_MODEL=old reads them)\n',
  )
})
