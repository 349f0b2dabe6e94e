import t from 'tap'
import { parse } from 'csv-parse/sync'
import {
  BASE_COLUMNS,
  lineOf,
  retractionLine,
  REVIEW_COLUMNS,
  verdictLine,
  type Cells,
} from '../../../src/adapters/files/reviews-lines.ts'
import type { VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { InputError } from '../../../src/errors.ts'

const record: VerdictRecord = {
  reviewed_at: '2026-03-01T10:00:00.000',
  reviewer: 'ann',
  judgment: 'spam',
  question: 'is_spam',
  state_hash: '63439f81dd1d698e',
  kind: 'disagreement',
  verdict: 'key_right',
  labels: ['yes'],
  model_label: 'no',
  key_label: 'yes',
  state: { message: 'a "quoted", message' },
  stratum: 'confident',
  rank: null,
}

const cellsOf = (line: string, columns: readonly string[] = REVIEW_COLUMNS): Cells =>
  (parse(line, { columns: [...columns] }) as Cells[])[0]

t.test('a verdict line holds every column, the labels and state as JSON, and reads back as the verdict', async (t) => {
  const line = verdictLine(record)
  t.equal(
    line,
    '2026-03-01T10:00:00.000,ann,spam,is_spam,63439f81dd1d698e,disagreement,key_right,"[""yes""]",no,yes,"{""message"":""a \\""quoted\\"", message""}",confident,,\n',
  )
  t.same(lineOf(cellsOf(line), 'r.csv:2', 'CSV'), { type: 'verdict', record })
  t.same(
    lineOf(cellsOf(verdictLine(record, ',', BASE_COLUMNS), BASE_COLUMNS), 'r.csv:2', 'CSV'),
    { type: 'verdict', record: { ...record, stratum: null } },
    'a line of an old file',
  )
})

t.test(
  'a retraction line repeats the withdrawn verdict with the time and name of the undo, verdict retracted and no labels',
  async (t) => {
    const line = retractionLine({ retracted_at: '2026-03-01T10:05:00.000', reviewer: 'bob', withdrawn: record })
    t.match(cellsOf(line), {
      reviewed_at: '2026-03-01T10:05:00.000',
      reviewer: 'bob',
      kind: 'disagreement',
      verdict: 'retracted',
      labels: '[]',
      model_label: 'no',
      key_label: 'yes',
      stratum: 'confident',
    })
    t.same(lineOf(cellsOf(line), 'r.csv:3', 'CSV'), {
      type: 'retraction',
      judgment: 'spam',
      question: 'is_spam',
      state_hash: '63439f81dd1d698e',
    })
    t.equal(
      retractionLine({ retracted_at: 'x', reviewer: 'bob', withdrawn: record }, '\t', BASE_COLUMNS).split('\t').length,
      BASE_COLUMNS.length,
      "in the file's shape",
    )
  },
)

t.test('a malformed line is an InputError naming where it is', async (t) => {
  const cells = cellsOf(verdictLine(record))
  t.throws(
    () => lineOf({ ...cells, verdict: 'maybe' }, 'r.csv:4', 'CSV'),
    new InputError('r.csv:4: unknown verdict "maybe"'),
  )
  t.throws(() => lineOf({ ...cells, kind: 'odd' }, 'r.csv:4', 'CSV'), new InputError('r.csv:4: unknown kind "odd"'))
  t.throws(
    () => lineOf({ ...cells, labels: '{' }, 'r.csv:4', 'CSV'),
    new InputError('r.csv:4: labels is not valid JSON'),
  )
  t.throws(() => lineOf({ ...cells, rank: '0' }, 'r.csv:4', 'CSV'), /rank must be a whole number from 1/)
  const { state: _, ...short } = cells
  t.throws(
    () => lineOf(short as Cells, 'r.csv:5', 'TSV'),
    new InputError('r.csv:5: not valid TSV: the line has fewer cells than the header'),
  )
})

t.test(
  'a comparison verdict is a line of kind compare, read back as a comparison; labeled with one label or an error',
  async (t) => {
    const comparison = {
      ...record,
      kind: 'compare' as const,
      verdict: 'labeled' as const,
      key_label: null,
      stratum: null,
      rank: null,
    }
    const line = verdictLine(comparison)
    t.match(cellsOf(line), { kind: 'compare', verdict: 'labeled', labels: '["yes"]', stratum: '', rank: '' })
    t.same(lineOf(cellsOf(line), 'r.csv:5', 'CSV'), { type: 'comparison', record: comparison })
    t.throws(
      () => lineOf({ ...cellsOf(line), verdict: 'confirmed' }, 'r.csv:5', 'CSV'),
      new InputError('r.csv:5: a comparison verdict must be labeled, not "confirmed"'),
    )
    t.throws(
      () => lineOf({ ...cellsOf(line), labels: '["yes","no"]' }, 'r.csv:5', 'CSV'),
      new InputError('r.csv:5: a comparison verdict holds one label'),
    )
  },
)
