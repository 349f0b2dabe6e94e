import t from 'tap'
import { dependenciesOf, findJudgment } from '../../../src/core/spec/project.ts'
import { UsageError } from '../../../src/errors.ts'
import { project, spec } from '../../helpers/specs.ts'

const yaml = (state: string) => `state: [${state}]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n`
const lang = spec(yaml('m'), '/specs/lang.judge.yaml')
const tone = spec(yaml('m, lang.q'), '/specs/tone.judge.yaml')
const reply = spec(yaml('m, tone.q'), '/specs/reply.judge.yaml')
const both = spec(yaml('lang.q, tone.q'), '/specs/both.judge.yaml')
const alone = spec(yaml('m'), '/specs/alone.judge.yaml')
const folder = project(lang, alone, tone, reply, both)

t.test("a judgment depends on what its state names, directly or not, in the project's order", async (t) => {
  t.same(
    dependenciesOf(folder, reply).map((s) => s.name),
    ['lang', 'tone'],
  )
  t.same(
    dependenciesOf(folder, both).map((s) => s.name),
    ['lang', 'tone'],
    'a dependency reached twice comes once',
  )
  t.same(
    dependenciesOf(folder, tone).map((s) => s.name),
    ['lang'],
  )
})

t.test('a judgment of plain columns depends on nothing, and never on itself', async (t) => {
  t.same(dependenciesOf(folder, alone), [])
  t.same(dependenciesOf(folder, lang), [])
})

t.test('a judgment is found by name; an unknown name lists the judgments there', async (t) => {
  t.equal(findJudgment(folder, 'tone'), tone)
  t.throws(
    () => findJudgment(folder, 'nope'),
    new UsageError('unknown node "nope"; the judgments here are: lang, alone, tone, reply, both'),
  )
})
