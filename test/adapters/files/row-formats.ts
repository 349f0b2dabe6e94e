import t from 'tap'
import { join } from 'node:path'
import { fileError, openRows } from '../../../src/adapters/files/row-formats.ts'

async function all(rows: AsyncIterable<{ row: unknown; where: string }>) {
  const out = []
  for await (const r of rows) out.push(r)
  return out
}

t.test('a file opens as the format it is given, each row with its line', async (t) => {
  const dir = t.testdir({
    'rows.jsonl': '{"m":"a"}\n\n{"m":"b"}\n',
    'rows.csv': 'm,n\nx,1\n',
    'semi.txt': 'm;n\nx;1\n',
  })
  t.same(await all(await openRows(join(dir, 'rows.jsonl'), 'rows')), [
    { row: { m: 'a' }, where: 'rows:1' },
    { row: { m: 'b' }, where: 'rows:3' },
  ])
  t.same(await all(await openRows(join(dir, 'rows.csv'), 'rows')), [{ row: { m: 'x', n: '1' }, where: 'rows:2' }])
  t.same(
    await all(await openRows(join(dir, 'semi.txt'), 'rows', ';')),
    [{ row: { m: 'x', n: '1' }, where: 'rows:2' }],
    'a given delimiter',
  )
})

t.test('a missing file is refused before a row is asked for, a folder at the first row', async (t) => {
  const dir = t.testdir({ 'sub.jsonl': {} })
  await t.rejects(openRows(join(dir, 'missing.csv'), 'missing.csv'), {
    name: 'NotFoundError',
    message: 'missing.csv: no such data file',
  })
  await t.rejects(all(await openRows(join(dir, 'sub.jsonl'), 'sub')), {
    name: 'InputError',
    message: 'sub: is a folder, not a data file',
  })
})

t.test('a read error names the file and its code', async (t) => {
  const error = Object.assign(new Error('denied'), { code: 'EACCES' })
  t.match(fileError(error, 'rows.csv'), {
    name: 'InputError',
    message: 'rows.csv: cannot read the data file (EACCES)',
    cause: error,
  })
  t.match(fileError(new Error('odd'), 'rows.csv'), { message: 'rows.csv: cannot read the data file (Error: odd)' })
})
