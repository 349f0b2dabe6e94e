import t from 'tap'
import { mergeAnswers, selectJudgments, withDependencies } from '../../../src/core/judge/select.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import type { SpecResult } from '../../../src/core/judge/judge-row.ts'
import { NodeNeededError, UsageError } from '../../../src/errors.ts'
import { project } from '../../helpers/specs.ts'

const a = parseSpec('state: [m]\nquestions:\n  x:\n    ask: X?\n    type: yes_no\n', '/p/a.judge.yaml')
const b = parseSpec('state: [m, a.x]\nquestions:\n  y:\n    ask: Y?\n    type: yes_no\n', '/p/b.judge.yaml')
const c = parseSpec('state: [m]\nquestions:\n  x:\n    ask: Other X?\n    type: yes_no\n', '/p/c.judge.yaml')

t.test('a node selects that judgment; an unknown node lists the known ones', async (t) => {
  t.same(
    selectJudgments(project(a, b), 'b', 'merged').map((s) => s.name),
    ['b'],
  )
  t.throws(
    () => selectJudgments(project(a, b), 'zz', 'merged'),
    new UsageError('unknown node "zz"; the judgments here are: a, b'),
  )
  t.same(
    selectJudgments(project(a, b), 'a', 'all').map((s) => s.name),
    ['a'],
  )
  t.throws(() => selectJudgments(project(a, b), 'zz', 'one'), UsageError)
})

t.test('without a node every selected judgment is judged, unless two share a question name', async (t) => {
  t.same(
    selectJudgments(project(a, b), undefined, 'merged').map((s) => s.name),
    ['a', 'b'],
  )
  t.throws(
    () => selectJudgments(project(a, c), undefined, 'merged'),
    /judgments a and c both ask question x; name one with node/,
  )
  t.same(
    selectJudgments(project(a, c), undefined, 'all').map((s) => s.name),
    ['a', 'c'],
    'commands need no merging',
  )
})

t.test(
  'one judgment: the node, or the only one selected; several without a node is an error naming them',
  async (t) => {
    t.same(
      selectJudgments(project(a), undefined, 'one').map((s) => s.name),
      ['a'],
    )
    t.same(
      selectJudgments(project(a, b), 'b', 'one').map((s) => s.name),
      ['b'],
    )
    t.throws(
      () => selectJudgments(project(a, b), undefined, 'one'),
      new NodeNeededError('this folder holds 2 judgments (a, b)'),
    )
    t.throws(() => selectJudgments(project(a, b), undefined, 'one'), {
      name: 'NodeNeededError',
      status: 400,
      exitCode: 2,
      message: 'this folder holds 2 judgments (a, b); name one with node',
    })
  },
)

t.test('dependencies come first, each once', async (t) => {
  t.same(
    withDependencies(project(a, b), [b]).map((s) => s.name),
    ['a', 'b'],
  )
  t.same(
    withDependencies(project(a, b), [b, a]).map((s) => s.name),
    ['a', 'b'],
  )
})

t.test('answers merge by question name', async (t) => {
  const answer = { label: 'yes', p: 1, margin: 1, route: '', cached: true }
  const results = new Map([
    ['a', { answers: { x: answer } }],
    ['b', { answers: { y: { ...answer, label: 'no' } } }],
  ]) as unknown as Map<string, SpecResult>
  t.same(mergeAnswers(results, [a, b]), { x: answer, y: { ...answer, label: 'no' } })
})
