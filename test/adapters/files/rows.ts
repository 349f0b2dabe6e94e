import t from 'tap'
import { join } from 'node:path'
import { chmodSync } from 'node:fs'
import { readRows } from '../../../src/adapters/files/local-files.ts'
import { formatOf } from '../../../src/adapters/files/rows.ts'

async function all(file: string, delimiter?: string) {
  const out = []
  for await (const r of readRows(file, 'data', delimiter)) out.push(r)
  return out
}

t.test('the format follows the extension', async (t) => {
  t.equal(formatOf('a.csv'), 'csv')
  t.equal(formatOf('a.JSONL'), 'jsonl')
  t.equal(formatOf('a.ndjson'), 'jsonl')
  t.equal(formatOf('a.txt'), 'csv')
})

t.test('CSV rows keep quoting, commas, newlines and a BOM right, with their line', async (t) => {
  const dir = t.testdir({ 'a.csv': '\ufeffid,message\n1,"Hi, ""you""\nthere"\n\n2,plain\n' })
  const rows = await all(join(dir, 'a.csv'))
  t.same(
    rows.map((r) => r.row),
    [
      { id: '1', message: 'Hi, "you"\nthere' },
      { id: '2', message: 'plain' },
    ],
  )
  t.same(
    rows.map((r) => r.where),
    ['data:3', 'data:5'],
  )
})

t.test('JSON Lines rows are objects, blank lines skipped', async (t) => {
  const dir = t.testdir({ 'a.jsonl': '{"message":"a","n":1}\n\n{"message":"b"}\n' })
  const rows = await all(join(dir, 'a.jsonl'))
  t.same(rows, [
    { row: { message: 'a', n: 1 }, where: 'data:1' },
    { row: { message: 'b' }, where: 'data:3' },
  ])
})

t.test('bad files give errors that say what and where', async (t) => {
  const dir = t.testdir({ 'arr.jsonl': '[1,2]\n', 'bad.csv': 'a,b\n1,2,3\n', sub: {}, 'sub.jsonl': {} })
  await t.rejects(all(join(dir, 'arr.jsonl')), /data:1: a row must be a JSON object/)
  await t.rejects(all(join(dir, 'bad.csv')), /data:2: not valid CSV/)
  await t.rejects(all(join(dir, 'missing.csv')), /data: no such data file/)
  await t.rejects(all(join(dir, 'sub')), /data: is a folder, not a data file/)
  await t.rejects(
    all(join(dir, 'sub.jsonl')),
    /data: is a folder, not a data file/,
    'a folder named like JSON Lines too',
  )
})

t.test(
  'an unreadable file is an input error',
  { skip: process.getuid?.() === 0 ? 'root reads every file' : false },
  async (t) => {
    const dir = t.testdir({ 'locked.csv': 'a\n1\n' })
    chmodSync(join(dir, 'locked.csv'), 0)
    await t.rejects(all(join(dir, 'locked.csv')), /cannot read the data file \(EACCES\)/)
  },
)

t.test('TSV rows split on tabs and keep quotes as text, as the SMS collection needs', async (t) => {
  const dir = t.testdir({ 'sms.tsv': 'label\tmessage\r\nham\t"Hi" she said, "see you"\r\nspam\tWIN "now\r\n' })
  const rows = await all(join(dir, 'sms.tsv'))
  t.same(
    rows.map((r) => r.row),
    [
      { label: 'ham', message: '"Hi" she said, "see you"' },
      { label: 'spam', message: 'WIN "now' },
    ],
  )
  t.same(
    rows.map((r) => r.where),
    ['data:2', 'data:3'],
  )
})

t.test('a given delimiter reads any file; a bad TSV row names its line', async (t) => {
  const dir = t.testdir({ 'semi.txt': 'a;b\n"x;y";2\n', 'short.tsv': 'a\tb\n1\t2\n3\n' })
  t.same(
    (await all(join(dir, 'semi.txt'), ';')).map((r) => r.row),
    [{ a: 'x;y', b: '2' }],
  )
  await t.rejects(all(join(dir, 'short.tsv')), {
    name: 'InputError',
    message: /^data:3: not valid TSV: Invalid Record Length/,
  })
  await t.rejects(
    all(join(dir, 'short.tsv'), '\t'),
    { message: /^data:3: not valid TSV/ },
    'a tab given as the delimiter reads the same',
  )
  await t.rejects(all(join(dir, 'semi.txt'), '|'), { message: /^data:2: not valid "\|"-separated text/ })
})
