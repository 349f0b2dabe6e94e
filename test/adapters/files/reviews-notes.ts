import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import {
  appendRetraction,
  appendVerdict,
  BASE_COLUMNS,
  readReviews,
  readVerdicts,
  REVIEW_COLUMNS,
  verdictLine,
} from '../../../src/adapters/files/reviews-file.ts'
import { forgetReviewStates } from '../../../src/adapters/files/reviews-forget.ts'
import { pickRows } from '../../../src/core/forget/line-pick.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { unsureVerdict as verdict } from '../../helpers/spam-answers.ts'

const NOTE = 'sarcasm, "not" spam; see =A1'
const STRATA_COLUMNS = [...BASE_COLUMNS, 'stratum', 'rank']

t.test('a note is the last column of a new file and reads back; a verdict without one reads without', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  await appendVerdict(file, verdict('a', { note: NOTE }))
  await appendVerdict(file, verdict('b'))
  const text = readFileSync(file, 'utf8')
  t.equal(text.split('\n')[0], REVIEW_COLUMNS.join(','))
  t.equal(REVIEW_COLUMNS.at(-1), 'note')
  t.same(
    (parse(text, { columns: true }) as Record<string, string>[]).map((r) => r.note),
    [NOTE, ''],
  )
  const read = [...(await readVerdicts(file)).values()]
  t.equal(read[0].note, NOTE)
  t.notOk('note' in read[1], 'no note, no field')
  t.same(read[0], verdict('a', { note: NOTE }))
})

t.test('files from before notes still read, and keep their shape as verdicts with notes are added', async (t) => {
  const dir = t.testdir()
  for (const [name, columns] of [
    ['base.csv', BASE_COLUMNS],
    ['strata.csv', STRATA_COLUMNS],
  ] as const) {
    const file = join(dir, name)
    const header = columns.join(',')
    writeFileSync(file, header + '\n' + verdictLine(verdict('old'), ',', columns as never))
    await appendVerdict(file, verdict('new', { note: NOTE }))
    await appendRetraction(file, {
      retracted_at: '2026-01-01T00:01:00.000',
      reviewer: 'ann',
      withdrawn: verdict('old'),
    })
    const text = readFileSync(file, 'utf8')
    t.equal(text.split('\n')[0], header, `${name}: the header is not rewritten`)
    t.equal(parse(text, { relax_column_count: false }).length, 4, `${name}: every line has the header's cells`)
    const read = [...(await readVerdicts(file)).values()]
    t.same(
      read.map((v) => [v.state.message, v.note]),
      [['new', undefined]],
      `${name}: the note is not kept where the file has no column for it`,
    )
  }
})

t.test('forgetting a row empties its state and keeps its note', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  await appendVerdict(file, verdict('secret', { note: NOTE }))
  await forgetReviewStates(file, pickRows(new Set([stateHash({ message: 'secret' })])), true)
  const [stack] = (await readReviews(file)).values()
  t.same(stack, [{ ...verdict('secret', { note: NOTE }), state: {} }])
})
