import t from 'tap'
import { join } from 'node:path'
import { answerModels, settingFor } from '../../src/app/answer-models.ts'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { createRuntime } from '../../src/runtime.ts'
import { readConfig } from '../../src/config.ts'
import { cli } from '../helpers/cli.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test(
  "without a store the spec's model is named and nothing else; after a simulated run, the simulated answers are another model's",
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'm.csv': 'message\nhi\nyo\n' })
    const project = loadProject(join(dir, 'spam.judge.yaml'))
    const app = createRuntime(readConfig({}, dir))
    t.teardown(() => app.close())
    t.same(answerModels(app, project, project.selected[0]), { judgment: 'spam', model: null, answers: 0, others: [] })
    t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'm.csv'], { ENGINE: 'simulated' }, dir)).code, 0)
    t.same(answerModels(app, project, project.selected[0]), {
      judgment: 'spam',
      model: 'jev-1.13.0',
      answers: 0,
      others: [{ model: 'simulated-1', answers: 6 }],
    })
    const simulated = createRuntime(readConfig({ ENGINE: 'simulated' }, dir))
    t.teardown(() => simulated.close())
    t.same(
      answerModels(simulated, project, project.selected[0]),
      { judgment: 'spam', model: 'simulated-1', answers: 6, others: [] },
      'the model read counts its own answers',
    )
  },
)

t.test(
  "the setting that reads a model's answers: ENGINE=simulated for the simulated engine's, else ENGINE_MODEL",
  async (t) => {
    t.equal(settingFor('simulated-1'), 'ENGINE=simulated')
    t.equal(settingFor('jev-1.12.0'), 'ENGINE_MODEL=jev-1.12.0')
    t.equal(settingFor('jury:simulated-a+simulated-b'), 'models: [simulated-a, simulated-b] in the spec')
    t.equal(settingFor('jury:jev-a+gpt-b'), 'models: [jev-a, gpt-b] in the spec', "a jury's are read by naming it")
  },
)

t.test("the models are counted from the store's counts, without listing its answer groups", async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'm.csv': 'message\nhi\nyo\n' })
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'm.csv'], { ENGINE: 'simulated' }, dir)).code, 0)
  const project = loadProject(join(dir, 'spam.judge.yaml'))
  const app = createRuntime(readConfig({ ENGINE: 'simulated' }, dir))
  t.teardown(() => app.close())
  const store = app.existingStore(project)!
  // Listing the groups reads every answer of the store: a second for a million.
  store.answerGroups = () => {
    t.fail('the answer groups were listed')
    return []
  }
  t.match(answerModels(app, project, project.selected[0]), { model: 'simulated-1', answers: 6, others: [] })
})
