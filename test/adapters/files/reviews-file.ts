import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { verdictKey, type VerdictRecord } from '../../../src/core/review/verdicts.ts'
import {
  appendRetraction,
  appendVerdict,
  BASE_COLUMNS,
  readVerdicts,
  REVIEW_COLUMNS,
  validReviewer,
  verdictLine,
} from '../../../src/adapters/files/reviews-file.ts'
import { fillDisk, mountProblem, mountTmpfs, remount } from '../../helpers/mounts.ts'

const CANNOT_MOUNT = mountProblem() ?? false

const HEADER = REVIEW_COLUMNS.join(',')

function record(n: number, more: Partial<VerdictRecord> = {}): VerdictRecord {
  return {
    reviewed_at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000`,
    reviewer: `reviewer ${n}`,
    judgment: 'spam',
    question: 'is_spam',
    state_hash: n.toString(16).padStart(16, '0'),
    kind: 'disagreement',
    verdict: 'both_ok',
    labels: ['yes', 'no'],
    model_label: 'yes',
    key_label: 'no',
    state: { message: `message ${n}: "quoted", with commas,\nnew lines and ünïcode ${'x'.repeat(1500)}` },
    stratum: 'confident',
    rank: n + 1,
    ...more,
  }
}

const lines = (file: string) => readFileSync(file, 'utf8')
const rows = (file: string): Record<string, string>[] => parse(lines(file), { columns: true })

t.test('reviewer names are 1 to 64 letters, digits, spaces and ._@-, starting with a letter or digit', async (t) => {
  for (const ok of ['ann', 'Ann Lee', 'a.lee@example.org', 'r2-d2_x', 'Zoë', '7', 'a'.repeat(64)])
    t.ok(validReviewer(ok), ok)
  for (const bad of [
    '',
    ' ann',
    '=SUM(A1)',
    '+1',
    '-x',
    '@x',
    '.x',
    'a'.repeat(65),
    'ann;drop',
    'a,b',
    'a"b',
    'a\nb',
    '<b>',
  ])
    t.notOk(validReviewer(bad), JSON.stringify(bad))
})

t.test('the first verdict creates the file with its header; verdicts read back as written', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  t.same(await readVerdicts(file), new Map(), 'a missing file holds no verdicts')
  await appendVerdict(file, record(1))
  await appendVerdict(file, record(2, { verdict: 'needs_context', labels: [], key_label: null, kind: 'unsure' }))
  t.equal(lines(file).split('\n')[0], HEADER)
  const verdicts = await readVerdicts(file)
  t.same(
    [...verdicts.values()],
    [record(1), record(2, { verdict: 'needs_context', labels: [], key_label: null, kind: 'unsure' })],
  )
  t.match(rows(file)[0], { labels: '["yes","no"]', key_label: 'no', state: /^\{"message":"message 1/ })
  t.equal(rows(file)[1].key_label, '', 'no key label is an empty cell')
})

t.test('each verdict records the stratum and rank of its row; an empty cell is none', async (t) => {
  const file = join(t.testdir(), 'r.csv')
  await appendVerdict(file, record(1, { stratum: 'unsure', rank: 12 }))
  await appendVerdict(file, record(2, { stratum: 'confident', rank: null }))
  t.equal(
    lines(file).split('\n')[0],
    'reviewed_at,reviewer,judgment,question,state_hash,kind,verdict,labels,model_label,key_label,state,stratum,rank,note',
  )
  t.match(rows(file), [
    { stratum: 'unsure', rank: '12' },
    { stratum: 'confident', rank: '' },
  ])
  t.same(
    [...(await readVerdicts(file)).values()].map((v) => [v.stratum, v.rank]),
    [
      ['unsure', 12],
      ['confident', null],
    ],
  )
})

t.test('a file from before strata still reads, and keeps its shape as verdicts are added', async (t) => {
  const file = join(t.testdir(), 'old.csv')
  const old = record(1, { stratum: null, rank: null })
  writeFileSync(file, BASE_COLUMNS.join(',') + '\n' + verdictLine(old, ',', BASE_COLUMNS))
  await appendVerdict(file, record(2, { stratum: 'unsure', rank: 3 }))
  const text = lines(file)
  t.equal(text.split('\n')[0], BASE_COLUMNS.join(','), 'the header is not rewritten')
  t.equal(parse(text, { relax_column_count: false }).length, 3, "every line has the header's cells")
  t.same(
    [...(await readVerdicts(file)).values()].map((v) => [v.state_hash, v.stratum, v.rank]),
    [
      [old.state_hash, null, null],
      [record(2).state_hash, null, null],
    ],
  )
  writeFileSync(
    file,
    text.replace(BASE_COLUMNS.join(','), REVIEW_COLUMNS.join(',')) +
      verdictLine(record(3, { stratum: 'unsure', rank: 4 })),
  )
  t.same(
    [...(await readVerdicts(file)).values()].map((v) => [v.stratum, v.rank]),
    [
      [null, null],
      [null, null],
      ['unsure', 4],
    ],
    'a header given the columns by hand reads the shorter lines before',
  )
})

t.test('a stratum or rank that is not one is an error naming the line', async (t) => {
  const file = join(t.testdir(), 'bad.csv')
  writeFileSync(
    file,
    REVIEW_COLUMNS.join(',') + '\n' + verdictLine(record(1)).replace(/,confident,2,\n$/, ',middle,2,\n'),
  )
  await t.rejects(readVerdicts(file), { name: 'InputError', message: `${file}:2: unknown stratum "middle"` })
  writeFileSync(
    file,
    REVIEW_COLUMNS.join(',') + '\n' + verdictLine(record(1)).replace(/,confident,2,\n$/, ',confident,0,\n'),
  )
  await t.rejects(readVerdicts(file), { message: `${file}:2: rank must be a whole number from 1, not "0"` })
})

t.test('the latest verdict of a row wins', async (t) => {
  const file = join(t.testdir(), 'r.csv')
  await appendVerdict(file, record(1, { verdict: 'model_right', labels: ['yes'] }))
  await appendVerdict(file, record(1, { verdict: 'key_right', labels: ['no'], question: 'topic' }))
  await appendVerdict(file, record(1, { verdict: 'ambiguous', labels: [] }))
  const verdicts = await readVerdicts(file)
  t.equal(verdicts.size, 2)
  t.equal(verdicts.get(verdictKey('spam', 'is_spam', record(1).state_hash))!.verdict, 'ambiguous')
  t.equal(verdicts.get(verdictKey('spam', 'topic', record(1).state_hash))!.verdict, 'key_right')
})

t.test('50 concurrent appends to one file all land, each once, whole, under one header', async (t) => {
  const file = join(t.testdir(), 'r.csv')
  await Promise.all(Array.from({ length: 50 }, (_, i) => appendVerdict(file, record(i))))
  const text = lines(file)
  t.equal(text.split(HEADER).length - 1, 1, 'one header')
  const got = rows(file)
  t.equal(got.length, 50)
  t.same(new Set(got.map((r) => r.reviewer)), new Set(Array.from({ length: 50 }, (_, i) => `reviewer ${i}`)))
  t.ok(
    got.every((r) => JSON.parse(r.state).message === record(Number(r.reviewer.slice(9))).state.message),
    'no line is torn or mixed',
  )
})

t.test('a second process appending at the same time loses nothing either', async (t) => {
  const file = join(t.testdir(), 'r.csv')
  const module = resolve(import.meta.dirname, '../../../src/adapters/files/reviews-file.ts')
  const code = `
    import { appendVerdict } from ${JSON.stringify(module)}
    const record = JSON.parse(process.argv[1])
    await Promise.all(Array.from({ length: 40 }, (_, i) => appendVerdict(${JSON.stringify(file)}, { ...record, reviewer: 'child ' + i })))
  `
  const child = new Promise<number | null>((done, fail) => {
    const proc = spawn(
      process.execPath,
      ['--no-warnings', '--input-type=module', '-e', code, JSON.stringify(record(0))],
      { stdio: 'inherit' },
    )
    proc.on('error', fail)
    proc.on('close', done)
  })
  await Promise.all(Array.from({ length: 40 }, (_, i) => appendVerdict(file, record(i + 100))))
  t.equal(await child, 0)
  const got = rows(file)
  t.equal(got.length, 80)
  t.equal(new Set(got.map((r) => r.reviewer)).size, 80, 'each line once')
  t.ok(
    got.every(
      (r) => REVIEW_COLUMNS.every((c) => typeof r[c] === 'string') && JSON.parse(r.state).message.length > 1500,
    ),
  )
  t.equal(lines(file).split(HEADER).length - 1, 1, 'one header')
})

t.test('a file someone created empty gets its header with the first verdict', async (t) => {
  const dir = t.testdir({ 'r.csv': '' })
  await appendVerdict(join(dir, 'r.csv'), record(1))
  t.equal(lines(join(dir, 'r.csv')).split('\n')[0], HEADER)
  t.equal((await readVerdicts(join(dir, 'r.csv'))).size, 1)
})

t.test('a failed append rejects without holding up the appends queued behind it', async (t) => {
  const dir = t.testdir()
  const file = join(dir, 'later', 'r.csv')
  const failed = appendVerdict(file, record(1))
  const queued = failed.catch(() => null).then(() => appendVerdict(file, record(2)))
  await t.rejects(failed, { code: 'ENOENT' })
  await t.rejects(queued, { code: 'ENOENT' })
  mkdirSync(join(dir, 'later'))
  await appendVerdict(file, record(3))
  t.same(
    [...(await readVerdicts(file)).values()].map((v) => v.reviewer),
    ['reviewer 3'],
  )
})

t.test('a repeated header line is skipped; a malformed line is an error naming file and line', async (t) => {
  const dir = t.testdir()
  const file = join(dir, 'r.csv')
  const good = verdictLine(record(1))
  writeFileSync(file, `${HEADER}\n${good}${HEADER}\n${verdictLine(record(2))}`)
  t.equal((await readVerdicts(file)).size, 2)
  const broken = async (line: string, message: RegExp) => {
    writeFileSync(file, `${HEADER}\n${good}${line}\n`)
    await t.rejects(readVerdicts(file), { name: 'InputError', message })
  }
  await broken(good.replace('both_ok', 'approve'), /r\.csv:3: unknown verdict "approve"/)
  await broken(good.replace('disagreement', 'random'), /r\.csv:3: unknown kind "random"/)
  await broken(good.replace('"[""yes"",""no""]"', 'yes'), /r\.csv:3: labels is not valid JSON/)
  await broken(good.replace('"[""yes"",""no""]"', '"{""a"":1}"'), /r\.csv:3: labels must be a JSON array of labels/)
  await broken(good.replace(/"\{""message"".*\}"/s, '"[1]"'), /r\.csv:3: state must be a JSON object of column values/)
  await broken('a,b', /r\.csv:3: not valid CSV/)
  writeFileSync(file, 'reviewed_at,reviewer,verdict\n')
  await t.rejects(readVerdicts(file), {
    message:
      /r\.csv: not a reviews file: the header lacks judgment, question, state_hash, kind, labels, model_label, key_label, state/,
  })
  await t.rejects(readVerdicts(dir), { name: 'InputError', message: /cannot read the reviews file \(EISDIR\)/ })
})

t.test('a .tsv reviews file is written and read with tabs', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.tsv')
  await appendVerdict(file, record(1))
  await appendVerdict(file, record(2, { state: { message: 'say "hi"' } }))
  const text = lines(file)
  t.equal(text.split('\n')[0], REVIEW_COLUMNS.join('\t'))
  t.equal(
    text.trimEnd().split('\n').length,
    3,
    "one line per verdict: the state's line breaks stay escaped in its JSON",
  )
  t.same([...(await readVerdicts(file)).values()], [record(1), record(2, { state: { message: 'say "hi"' } })])
})

t.test('an undo appends a retraction line and edits none; the verdict it withdrew no longer stands', async (t) => {
  const file = join(t.testdir(), 'undo.csv')
  await appendVerdict(file, record(1))
  await appendVerdict(file, record(2))
  const before = lines(file)
  await appendRetraction(file, { retracted_at: '2026-01-02T00:00:00.000', reviewer: 'bob', withdrawn: record(2) })
  const after = lines(file)
  t.ok(after.startsWith(before), 'every line before is as it was')
  t.match(rows(file)[2], {
    reviewed_at: '2026-01-02T00:00:00.000',
    reviewer: 'bob',
    verdict: 'retracted',
    labels: '[]',
    state_hash: record(2).state_hash,
  })
  t.same([...(await readVerdicts(file)).values()], [record(1)])
})

t.test('a file from before strata takes a retraction in its own shape', async (t) => {
  const file = join(t.testdir(), 'old.csv')
  const old = record(1, { stratum: null, rank: null })
  writeFileSync(file, BASE_COLUMNS.join(',') + '\n' + verdictLine(old, ',', BASE_COLUMNS))
  await appendRetraction(file, { retracted_at: '2026-01-02T00:00:00.000', reviewer: 'bob', withdrawn: old })
  t.equal(parse(lines(file), { relax_column_count: false }).length, 3, "every line has the header's cells")
  t.same(await readVerdicts(file), new Map())
})

t.test(
  'a verdict that does not fit on the disk is refused naming the file, and leaves no torn line',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const dir = mountTmpfs(t, 256 * 1024)
    const file = join(dir, 'spam.reviews.csv')
    await appendVerdict(file, record(1))
    const before = lines(file)
    const filler = fillDisk(dir)
    // Longer than a page, so that the disk takes the first part and refuses the rest.
    const long = record(2, { state: { message: 'y'.repeat(9000) } })
    await t.rejects(appendVerdict(file, long), {
      name: 'StoreError',
      trouble: 'full',
      message: `${file}: the disk is full, nothing was saved in it: free space and send it again`,
    })
    t.equal(lines(file), before, 'the part written was taken back')
    rmSync(filler)
    await appendVerdict(file, long)
    t.same(
      rows(file).map((r) => r.reviewer),
      ['reviewer 1', 'reviewer 2'],
      'once space is freed, the verdict lands whole',
    )
  },
)

t.test('a verdict on a read-only mount is refused naming the file', { skip: CANNOT_MOUNT }, async (t) => {
  const dir = mountTmpfs(t, 256 * 1024)
  const file = join(dir, 'spam.reviews.csv')
  await appendVerdict(file, record(1))
  remount(dir, 'ro')
  await t.rejects(appendVerdict(file, record(2)), {
    name: 'StoreError',
    trouble: 'read-only',
    message: `${file} cannot be written (EROFS)`,
  })
  await t.rejects(
    appendVerdict(join(dir, 'new.reviews.csv'), record(2)),
    { name: 'StoreError', trouble: 'read-only' },
    'nor can a new file be made',
  )
})

t.test('a last line cut short without its newline is a write in progress: the lines before it are read', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  await appendVerdict(file, record(1))
  await appendVerdict(file, record(2))
  const whole = lines(file)
  const second = whole.indexOf('reviewer 2')
  writeFileSync(file, whole.slice(0, second + 20))
  t.same(
    [...(await readVerdicts(file)).values()].map((v) => v.reviewer),
    ['reviewer 1'],
  )
  writeFileSync(file, whole.slice(0, -1))
  t.equal((await readVerdicts(file)).size, 2, 'a whole last line without its newline reads')
  writeFileSync(file, whole.replace('reviewer 1', 'reviewer 1"x'))
  await t.rejects(readVerdicts(file), { name: 'InputError' }, 'a bad line that ends with its newline is an error still')
})
