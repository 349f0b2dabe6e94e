import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openAnswersWriter } from '../../../src/adapters/files/answers-out.ts'
import type { SpecResult } from '../../../src/core/judge/judge-row.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'

const a = parseSpec('state: [m]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n', '/p/a.judge.yaml')
const b = parseSpec('state: [m]\nquestions:\n  q:\n    ask: Other?\n    type: yes_no\n', '/p/b.judge.yaml')
const answer = (label: string) => ({ label, p: 0.9, margin: 0.8, route: 'go', cached: true })
const results = (label: string) =>
  new Map([
    ['a', { answers: { q: answer(label) } }],
    ['b', { answers: { q: answer('no') } }],
  ]) as unknown as Map<string, SpecResult>

t.test('rows are written in input order whatever order they finish in', async (t) => {
  const file = join(t.testdir(), 'out.csv')
  const w = openAnswersWriter(file, [a])
  w.write(1, { m: 'second, with comma' }, results('no'))
  w.write(0, { m: 'first' }, results('yes'))
  w.write(2, { m: 'third' }, results('yes'))
  await w.close()
  t.equal(
    readFileSync(file, 'utf8'),
    'm,q,q.p,q.margin,q.route\nfirst,yes,0.9,0.8,go\n"second, with comma",no,0.9,0.8,go\nthird,yes,0.9,0.8,go\n',
  )
})

t.test('several judgments are written with judgment-prefixed columns; .jsonl writes JSON Lines', async (t) => {
  const file = join(t.testdir(), 'out.jsonl')
  const w = openAnswersWriter(file, [a, b])
  w.write(0, { m: 'x' }, results('yes'))
  await w.close()
  t.same(JSON.parse(readFileSync(file, 'utf8')), {
    m: 'x',
    'a.q': 'yes',
    'a.q.p': 0.9,
    'a.q.margin': 0.8,
    'a.q.route': 'go',
    'b.q': 'no',
    'b.q.p': 0.9,
    'b.q.margin': 0.8,
    'b.q.route': 'go',
  })
})

t.test('.tsv writes tab-separated lines; a tab or line break in a value becomes a space', async (t) => {
  const file = join(t.testdir(), 'out.tsv')
  const w = openAnswersWriter(file, [a])
  w.write(0, { m: 'say "hi",\tthen\nbye' }, results('yes'))
  await w.close()
  t.equal(readFileSync(file, 'utf8'), 'm\tq\tq.p\tq.margin\tq.route\nsay "hi", then bye\tyes\t0.9\t0.8\tgo\n')
})
