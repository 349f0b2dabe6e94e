import t from 'tap'
import { isAlias } from '../../src/core/model-names.ts'

t.test('names that move to newer builds are aliases; versioned builds are not', async (t) => {
  for (const name of [
    'jev-latest',
    'jev-preview',
    'llama3.2:latest',
    'gpt-5-chat-latest',
    'org/model.latest',
    'latest',
    'JEV-LATEST',
  ])
    t.ok(isAlias(name), name)
  for (const name of ['jev-1.14.0', 'system.ai.openjev-qwen35-4b', 'qwen2.5-7b-instruct', 'mylatest', 'previewer-1'])
    t.notOk(isAlias(name), name)
})
