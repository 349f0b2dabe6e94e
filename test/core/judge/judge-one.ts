import t from 'tap'
import { judgeOne } from '../../../src/core/judge/judge-one.ts'
import { CostCapError, EngineError } from '../../../src/errors.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { langSpec, project, spec, toneSpec } from '../../helpers/specs.ts'

const lang = langSpec()
const tone = toneSpec()
const other = spec(
  'state: [message]\nquestions:\n  short:\n    ask: Short?\n    type: yes_no\n',
  '/specs/other.judge.yaml',
)
const folder = project(lang, tone, other)
const row = { message: 'bonjour' }

t.test("the selected judgments' answers merge by question; every result, dependencies included, is kept", async (t) => {
  const engine = createFakeEngine()
  const one = await judgeOne({ deps: deps(engine), cap: 1 }, folder, [tone, other], row)
  t.same(Object.keys(one.answers), ['polite', 'short'], 'only the selected judgments answer')
  t.same([...one.results.keys()].sort(), ['lang', 'other', 'tone'])
  t.same(one.answers.polite, one.results.get('tone')!.answers.polite)
  t.equal(engine.calls.length, 3)
})

t.test('the cap holds for the one row; a row the store holds needs no budget', async (t) => {
  const d = deps(createFakeEngine())
  await t.rejects(judgeOne({ deps: d, cap: 0 }, folder, [other], row), CostCapError)
  await judgeOne({ deps: d, cap: 1 }, folder, [other], row)
  const again = await judgeOne({ deps: d, cap: 0 }, folder, [other], row)
  t.equal(again.answers.short.cached, true)
})

t.test('the cancel signal reaches the engine', async (t) => {
  const controller = new AbortController()
  const engine = createFakeEngine({ latencyMs: 10_000 })
  const pending = judgeOne({ deps: deps(engine), cap: 1, signal: controller.signal }, folder, [other], row)
  controller.abort()
  await t.rejects(pending, new EngineError('the engine request was cancelled', null))
})
