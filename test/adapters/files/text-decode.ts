import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { decodedHead, utf8Text, wholeCharacters } from '../../../src/adapters/files/text-decode.ts'
import { cli } from '../../helpers/cli.ts'

const CSV = 'text,label\nhello there,a\ngood bye,b\n'
const utf16be = (text: string) => Buffer.from(Buffer.from(text, 'utf16le').swap16())
const BOM_LE = Buffer.from([0xff, 0xfe])
const BOM_BE = Buffer.from([0xfe, 0xff])
const SPEC = 'state: [text]\nquestions: {q: {ask: x, type: yes_no}}\n'

/** The text a stream of the chunks gives through utf8Text. */
async function through(chunks: readonly Buffer[]): Promise<string> {
  return (await buffer(Readable.from(chunks).pipe(utf8Text('f.csv')))).toString('utf8')
}

t.test('a UTF-16 file with a byte-order mark is read by init and by run alike', async (t) => {
  const dir = t.testdir({
    'le.csv': Buffer.concat([BOM_LE, Buffer.from(CSV, 'utf16le')]),
    'be.csv': Buffer.concat([BOM_BE, utf16be(CSV)]),
  })
  for (const name of ['le', 'be']) {
    const init = await cli(['init', `${name}.csv`, '--json'], {}, dir)
    t.equal(init.code, 0, init.stderr)
    t.match(JSON.parse(init.stdout), { state: ['text'], key: { question: 'label', labels: ['a', 'b'] } })
    t.same(
      loadProject(join(dir, `${name}.judge.yaml`)).selected[0].state.map((c) => c.name),
      ['text'],
    )
    const test = await cli(['test', `${name}.judge.yaml`, '--json'], { ENGINE: 'simulated' }, dir)
    t.equal(test.code, 0, test.stderr)
    t.equal(JSON.parse(test.stdout)[name].label.counted, 2, `run reads ${name}.csv as init did`)
  }
})

t.test('a UTF-8 byte-order mark is dropped: a JSON Lines file that starts with one runs', async (t) => {
  const dir = t.testdir({ 'rows.jsonl': '\ufeff{"text":"hello"}\n{"text":"bye"}\n' })
  t.equal((await cli(['init', 'rows.jsonl'], {}, dir)).code, 0)
  t.match(await cli(['run', 'rows.judge.yaml'], { ENGINE: 'simulated' }, dir), { code: 0, stdout: /rows: 2 rows/ })
})

t.test('bytes that are not UTF-8 stop init and run alike, naming the file', async (t) => {
  const latin1 = Buffer.from('text,label\ncaf\xe9 au lait,a\nth\xe9,b\n', 'latin1')
  // Past the first chunk a stream reads (64 KiB), with a two-byte character cut by the chunk's end.
  const long = Buffer.from(`text\n${'é'.repeat(40_000)}\n`, 'utf8')
  const dir = t.testdir({
    'latin.csv': latin1,
    'latin.judge.yaml': `${SPEC}data: latin.csv\n`,
    'long.csv': long,
    'long.judge.yaml': `${SPEC}data: long.csv\n`,
    'late.csv': Buffer.concat([long, Buffer.from('caf\xe9\n', 'latin1')]),
    'late.judge.yaml': `${SPEC}data: late.csv\n`,
    'cut.csv': Buffer.concat([Buffer.from('text\nab'), Buffer.from([0xc3])]),
    'cut.judge.yaml': `${SPEC}data: cut.csv\n`,
  })
  const message =
    'latin.csv: is not UTF-8 text: judge reads data files in UTF-8, or in UTF-16 with a byte-order mark; ' +
    'save it as UTF-8 (e.g. iconv -f latin1 -t utf-8)\n'
  t.match(await cli(['init', 'latin.csv'], {}, dir), { code: 2, stderr: `judge init: ${message}` })
  const run = await cli(['run', 'latin.judge.yaml'], { ENGINE: 'simulated' }, dir)
  t.equal(run.code, 2)
  t.match(run.stderr, /latin\.csv: is not UTF-8 text: judge reads data files in UTF-8/)
  t.match(await cli(['run', 'long.judge.yaml'], { ENGINE: 'simulated' }, dir), { code: 0, stdout: /long: 1 row,/ })
  t.match(await cli(['run', 'late.judge.yaml'], { ENGINE: 'simulated' }, dir), {
    code: 2,
    stderr: /late\.csv: is not UTF-8/,
  })
  t.match(await cli(['run', 'cut.judge.yaml'], { ENGINE: 'simulated' }, dir), {
    code: 2,
    stderr: /cut\.csv: is not UTF-8/,
  })
  writeFileSync(
    join(dir, 'odd.csv'),
    Buffer.concat([BOM_LE, Buffer.from('text\n', 'utf16le'), Buffer.from([0x00, 0xdc])]),
  )
  t.match(await cli(['init', 'odd.csv'], {}, dir), { code: 2, stderr: /odd\.csv: is not UTF-16 \(LE\) text/ })
})

t.test(
  'chunks are joined wherever they are cut: in a character, in a byte-order mark, or a file of two bytes',
  async (t) => {
    const text = Buffer.from('aé€𝄞\n')
    t.equal(await through([text.subarray(0, 2), text.subarray(2, 5), text.subarray(5)]), 'aé€𝄞\n')
    t.equal(await through([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf, 0x61])]), 'a', 'a UTF-8 mark split')
    t.equal(await through([Buffer.from('ab')]), 'ab')
    t.equal(await through([]), '')
    const be = Buffer.concat([BOM_BE, utf16be('hé')])
    t.equal(await through([be.subarray(0, 3), be.subarray(3)]), 'hé', 'a UTF-16 unit split')
    await t.rejects(through([BOM_BE, Buffer.from([0xd8])]), {
      name: 'InputError',
      message: /f\.csv: is not UTF-16 \(BE\)/,
    })
  },
)

t.test('a head cut in a character drops it; the whole file must end on one', async (t) => {
  const bytes = Buffer.from('text,é')
  t.equal(decodedHead(bytes.subarray(0, -1), 'f.csv', false), 'text,')
  t.throws(() => decodedHead(bytes.subarray(0, -1), 'f.csv', true), { message: /f\.csv: is not UTF-8 text/ })
  t.equal(wholeCharacters(Buffer.from([0x61, 0xe2, 0x82])), 1, 'a three-byte character two bytes in waits')
  t.equal(wholeCharacters(Buffer.from([0x80, 0x80, 0x80])), 3, 'no lead byte: left to the check')
  t.equal(wholeCharacters(Buffer.from('a€')), 4)
  t.equal(wholeCharacters(Buffer.from([0x61, 0xc3])), 1, 'a two-byte character begun')
  t.equal(wholeCharacters(Buffer.from([0xf0, 0x9d])), 0, 'a four-byte character begun')
  t.equal(wholeCharacters(Buffer.from('ab')), 2)
})
