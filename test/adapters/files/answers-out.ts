import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { answerColumns, openAnswersWriter } from '../../../src/adapters/files/answers-out.ts'
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

t.test('a prefix names every answer column; answerColumns lists them as they are written', async (t) => {
  const file = join(t.testdir(), 'out.csv')
  const w = openAnswersWriter(file, [a], 'ai_')
  w.write(0, { m: 'x', q: 'own' }, results('yes'))
  await w.close()
  t.equal(readFileSync(file, 'utf8'), 'm,q,ai_q,ai_q.p,ai_q.margin,ai_q.route\nx,own,yes,0.9,0.8,go\n')
  t.same(answerColumns([a], 'ai_'), ['ai_q', 'ai_q.p', 'ai_q.margin', 'ai_q.route'])
  t.same(answerColumns([a, b]), ['a.q', 'a.q.p', 'a.q.margin', 'a.q.route', 'b.q', 'b.q.p', 'b.q.margin', 'b.q.route'])
})

t.test('the file is put in place only by close; discard leaves the file of that name as it was', async (t) => {
  const dir = t.testdir({ 'out.csv': 'old\n' })
  const file = join(dir, 'out.csv')
  const dropped = openAnswersWriter(file, [a])
  dropped.write(0, { m: 'x' }, results('yes'))
  await dropped.discard()
  t.equal(readFileSync(file, 'utf8'), 'old\n')
  const kept = openAnswersWriter(file, [a])
  kept.write(0, { m: 'x' }, results('yes'))
  t.equal(readFileSync(file, 'utf8'), 'old\n', 'while it is written')
  await kept.close()
  t.equal(readFileSync(file, 'utf8'), 'm,q,q.p,q.margin,q.route\nx,yes,0.9,0.8,go\n')
  t.same(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  )
})
