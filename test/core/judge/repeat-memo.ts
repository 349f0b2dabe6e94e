import t from 'tap'
import { createRepeatMemo } from '../../../src/core/judge/repeat-memo.ts'
import type { SpecResult } from '../../../src/core/judge/judge-row.ts'
import { spec } from '../../helpers/specs.ts'

const spam = spec()
const result = (stateHash: string, cached = true): SpecResult => ({
  spec: spam,
  model: 'jev-test',
  state: { message: 'x' },
  stateHash,
  stored: new Map(),
  answers: Object.fromEntries(
    spam.questions.map((q) => [q.name, { label: 'no', p: 0.9, margin: 0.8, route: '', cached, p_source: null }]),
  ),
})

t.test('a memo keeps results met again by judgment and state, up to its limit', async (t) => {
  const memo = createRepeatMemo<SpecResult>(2)
  const a = result('a'.repeat(16))
  memo.keep(a)
  memo.keep(result('a'.repeat(16)))
  t.equal(memo.get('spam', 'a'.repeat(16)), a, 'the first result of a state stays: it is kept once')
  t.equal(memo.get('other', 'a'.repeat(16)), undefined, 'keyed by judgment too')
  memo.keep(result('b'.repeat(16)))
  memo.keep(result('c'.repeat(16)))
  t.equal(memo.size, 2)
  t.equal(memo.get('spam', 'c'.repeat(16)), undefined, 'full: kept nothing more')
})

t.test('a result with an answer asked in this pass is not kept: a later row would read it as asked', async (t) => {
  const memo = createRepeatMemo<SpecResult>()
  memo.keep(result('d'.repeat(16), false))
  t.equal(memo.size, 0)
})
