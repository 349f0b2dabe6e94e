import t from 'tap'
import { join } from 'node:path'
import { readHeader } from '../../../src/adapters/files/header.ts'
import { TAB } from '../../../src/adapters/files/delimiter.ts'

t.test('the header of a CSV, TSV or JSON Lines file', async (t) => {
  const dir = t.testdir({
    'a.csv': '\ufeffid, message ,"note, long"\n1,hi,x\n',
    'b.tsv': 'label\tmessage\nham\t"quoted" text\n',
    'c.jsonl': '\n{"message":"hi","n":1}\n',
  })
  t.match(await readHeader(join(dir, 'a.csv'), 'a.csv'), {
    columns: ['id', 'message', 'note, long'],
    delimiter: ',',
    sniffed: false,
  })
  t.match(await readHeader(join(dir, 'b.tsv'), 'b.tsv'), {
    columns: ['label', 'message'],
    delimiter: TAB,
    sniffed: false,
  })
  t.match(await readHeader(join(dir, 'c.jsonl'), 'c.jsonl'), {
    columns: ['message', 'n'],
    delimiter: null,
    sniffed: false,
  })
})

t.test('a file named .csv whose header has tabs or semicolons and no comma is read with them', async (t) => {
  const dir = t.testdir({
    'tabs.csv': 'label\tmessage\nham\thi, there\n',
    'semi.txt': 'a;b\n1;2\n',
    'one.csv': 'message\nhi\n',
  })
  t.match(await readHeader(join(dir, 'tabs.csv'), 'tabs.csv'), {
    columns: ['label', 'message'],
    delimiter: TAB,
    sniffed: true,
  })
  t.match(await readHeader(join(dir, 'semi.txt'), 'semi.txt'), { columns: ['a', 'b'], delimiter: ';', sniffed: true })
  t.match(await readHeader(join(dir, 'one.csv'), 'one.csv'), { columns: ['message'], delimiter: ',', sniffed: false })
  t.match(
    await readHeader(join(dir, 'tabs.csv'), 'tabs.csv', ','),
    { columns: ['label\tmessage'], delimiter: ',', sniffed: false },
    'a given delimiter is taken as given',
  )
})

t.test('what cannot give a header is an error naming the file', async (t) => {
  const dir = t.testdir({
    'empty.csv': '\n\n',
    'bad.jsonl': 'nope\n',
    'list.jsonl': '[1]\n',
    'quote.csv': '"a,b\n',
    sub: {},
  })
  await t.rejects(readHeader(join(dir, 'empty.csv'), 'empty.csv'), {
    name: 'InputError',
    message: 'empty.csv: the file is empty; init needs a header line naming the columns',
  })
  await t.rejects(readHeader(join(dir, 'bad.jsonl'), 'bad.jsonl'), {
    name: 'InputError',
    message: /^bad\.jsonl:1: not valid JSON/,
  })
  await t.rejects(readHeader(join(dir, 'list.jsonl'), 'list.jsonl'), {
    message: 'list.jsonl:1: a row must be a JSON object',
  })
  await t.rejects(readHeader(join(dir, 'quote.csv'), 'quote.csv'), {
    name: 'InputError',
    message: /^quote\.csv:1: not a valid CSV header/,
  })
  await t.rejects(readHeader(join(dir, 'missing.csv'), 'missing.csv'), {
    name: 'NotFoundError',
    message: 'missing.csv: no such data file',
  })
  await t.rejects(readHeader(join(dir, 'sub'), 'sub'), {
    name: 'InputError',
    message: /^sub: is a folder or cannot be read/,
  })
})

t.test('the lines after the header are sampled, as far as they parse', async (t) => {
  const dir = t.testdir({ 'a.tsv': 'ham\tOk\nspam\tWin\n', 'cut.csv': 'a,b\n1,2\n"open,3\n' })
  t.same((await readHeader(join(dir, 'a.tsv'), 'a.tsv')).sample, [['spam', 'Win']])
  t.same(
    await readHeader(join(dir, 'cut.csv'), 'cut.csv'),
    { columns: ['a', 'b'], delimiter: ',', sniffed: false, sample: [] },
    'a sample that does not parse is left out',
  )
})
