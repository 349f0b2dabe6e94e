import t from 'tap'
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  appendRetraction,
  appendVerdict,
  BASE_COLUMNS,
  holdsParsedReviews,
  readReviews,
  readVerdicts,
  REVIEW_COLUMNS,
  verdictLine,
} from '../../../src/adapters/files/reviews-file.ts'
import { forgetReviewStates } from '../../../src/adapters/files/reviews-forget.ts'
import { pickBefore, pickRows } from '../../../src/core/forget/line-pick.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { InputError } from '../../../src/errors.ts'
import { unsureVerdict as verdict } from '../../helpers/spam-answers.ts'

const MARKER = 'forget-me-9d41'

const bytes = (file: string) => readFileSync(file)
const secret = `${MARKER}: "quoted", with commas,\nnew lines and ünïcode`
const forgotten = new Set([stateHash({ message: secret })])

t.test("a forgotten row's lines lose their state and nothing else; every other byte stays", async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  await appendVerdict(file, verdict('See you at lunch'))
  await appendVerdict(file, verdict(secret))
  await appendVerdict(
    file,
    verdict('WIN a prize', {
      kind: 'disagreement',
      verdict: 'both_ok',
      labels: ['yes', 'no'],
      key_label: 'no',
      stratum: null,
      rank: null,
    }),
  )
  await appendRetraction(file, { retracted_at: '2026-01-01T00:01:00.000', reviewer: 'bob', withdrawn: verdict(secret) })
  await appendVerdict(file, verdict(secret, { reviewer: 'cy', reviewed_at: '2026-01-01T00:02:00.000' }))
  const before = readFileSync(file, 'utf8')
  await readReviews(file)
  t.ok(holdsParsedReviews(file), 'read once, the file is held parsed')
  t.same(await forgetReviewStates(file, pickRows(forgotten), true), new Map([[stateHash({ message: secret }), 3]]))
  t.notOk(holdsParsedReviews(file), 'and let go of once rows are forgotten in it')
  t.equal(bytes(file).indexOf(MARKER), -1, 'the marker is gone')
  const lines = before.split(/(?<=\n)(?=\d{4}-)/)
  const after = readFileSync(file, 'utf8').split(/(?<=\n)(?=\d{4}-)/)
  t.equal(after.length, lines.length)
  for (const i of [0, 1, 3]) t.equal(after[i], lines[i], `line ${i + 1} is byte for byte as it was`)
  t.equal(
    after[2],
    verdictLine({ ...verdict(secret), state: {} }),
    'a changed line is the line its verdict with no state would be',
  )
  t.match(
    after[4],
    /^2026-01-01T00:01:00\.000,bob,spam,is_spam,[0-9a-f]{16},unsure,retracted,\[\],no,,\{\},unsure,1,\n$/,
  )
  const reviews = await readReviews(file)
  t.same(
    reviews.get(`spam\0is_spam\0${stateHash({ message: secret })}`),
    [{ ...verdict(secret, { reviewer: 'cy', reviewed_at: '2026-01-01T00:02:00.000' }), state: {} }],
    'the verdicts still count, by hash',
  )
  t.equal((await readVerdicts(file)).size, 3)
})

t.test(
  'the file keeps its quirks: a byte-order mark, CRLF line ends, blank lines, no final newline, a repeated header',
  async (t) => {
    const file = join(t.testdir(), 'spam.reviews.csv')
    const header = REVIEW_COLUMNS.join(',')
    const keep = verdictLine(verdict('keep me')).replace('\n', '')
    const go = verdictLine(verdict(MARKER)).replace('\n', '')
    const text = `\ufeff${header}\r\n${keep}\r\n\r\n${go}\r\n${header}\r\n${go}`
    writeFileSync(file, text)
    t.same(
      await forgetReviewStates(file, pickRows(new Set([stateHash({ message: MARKER })])), true),
      new Map([[stateHash({ message: MARKER }), 2]]),
    )
    const empty = verdictLine({ ...verdict(MARKER), state: {} }).replace('\n', '')
    t.equal(readFileSync(file, 'utf8'), `\ufeff${header}\r\n${keep}\r\n\r\n${empty}\r\n${header}\r\n${empty}`)
  },
)

t.test('a tab-separated file and one from before strata keep their shape', async (t) => {
  const dir = t.testdir()
  const tsv = join(dir, 'spam.reviews.tsv')
  await appendVerdict(tsv, verdict(MARKER))
  await appendVerdict(tsv, verdict('stays'))
  await forgetReviewStates(tsv, pickRows(new Set([stateHash({ message: MARKER })])), true)
  t.same(
    readFileSync(tsv, 'utf8')
      .split('\n')
      .map((l) => l.split('\t').length),
    [14, 14, 14, 1],
  )
  t.same(
    [...(await readVerdicts(tsv)).values()].map((v) => v.state),
    [{}, { message: 'stays' }],
  )
  const old = join(dir, 'old.reviews.csv')
  writeFileSync(old, BASE_COLUMNS.join(',') + '\n' + verdictLine(verdict(MARKER), ',', BASE_COLUMNS))
  await forgetReviewStates(old, pickRows(new Set([stateHash({ message: MARKER })])), true)
  t.equal(readFileSync(old, 'utf8').split('\n')[1].split(',').length, 11, 'eleven cells, as the header')
  t.same([...(await readVerdicts(old)).values()][0].state, {})
})

t.test('a dry run counts and writes nothing; nothing chosen writes nothing', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  await appendVerdict(file, verdict(MARKER))
  const { ino, mtimeMs } = statSync(file)
  t.same(
    await forgetReviewStates(file, pickRows(new Set([stateHash({ message: MARKER })])), false),
    new Map([[stateHash({ message: MARKER }), 1]]),
  )
  t.same(await forgetReviewStates(file, pickRows(new Set(['0'.repeat(16)])), true), new Map())
  t.same({ ino: statSync(file).ino, mtimeMs: statSync(file).mtimeMs }, { ino, mtimeMs })
  t.same(
    await forgetReviewStates(join(t.testdir(), 'none.csv'), pickRows(new Set()), true),
    new Map(),
    'a missing file holds nothing',
  )
})

t.test(
  'the rewritten file replaces the old one whole, with its permissions, and no file is left beside it',
  async (t) => {
    const dir = t.testdir()
    const file = join(dir, 'spam.reviews.csv')
    await appendVerdict(file, verdict(MARKER))
    chmodSync(file, 0o640)
    const { ino } = statSync(file)
    await forgetReviewStates(file, pickBefore('spam', '2030-01-01T00:00:00.000'), true)
    t.not(statSync(file).ino, ino, 'a new file took the name')
    t.equal(statSync(file).mode & 0o777, 0o640)
    t.same(readdirSync(dir), ['spam.reviews.csv'])
  },
)

t.test('a line reading would refuse is refused, naming it, and the file is left as it was', async (t) => {
  const dir = t.testdir()
  const file = join(dir, 'spam.reviews.csv')
  const text =
    REVIEW_COLUMNS.join(',') +
    '\n' +
    verdictLine(verdict(MARKER)) +
    verdictLine(verdict('x')).replace('labeled', 'maybe')
  writeFileSync(file, text)
  await t.rejects(
    forgetReviewStates(file, pickRows(new Set([stateHash({ message: MARKER })])), true),
    new InputError(`${file}:3: unknown verdict "maybe"`),
  )
  writeFileSync(file, 'a,"b\n')
  await t.rejects(forgetReviewStates(file, pickRows(new Set()), true), {
    name: 'InputError',
    message: /spam\.reviews\.csv:\d+: not valid CSV/,
  })
  writeFileSync(file, 'reviewed_at,state\n1,{}\n')
  await t.rejects(forgetReviewStates(file, pickRows(new Set()), true), {
    message: /not a reviews file: the header lacks reviewer, judgment/,
  })
  t.equal(readFileSync(file, 'utf8'), 'reviewed_at,state\n1,{}\n')
})

t.test(
  'a reviews file that cannot be read is an input error, and a folder that cannot be written leaves the file as it was',
  async (t) => {
    const dir = t.testdir({ 'spam.reviews.csv': {}, ro: {} })
    await t.rejects(forgetReviewStates(join(dir, 'spam.reviews.csv'), pickRows(new Set()), true), {
      name: 'InputError',
      message: /cannot read the reviews file \(EISDIR\)/,
    })
    const ro = join(dir, 'ro')
    const file = join(ro, 'spam.reviews.csv')
    await appendVerdict(file, verdict(MARKER))
    const before = readFileSync(file, 'utf8')
    if (process.getuid?.() === 0) return t.comment('root writes into any folder: the refusal cannot be shown')
    chmodSync(ro, 0o500)
    await t.rejects(forgetReviewStates(file, pickRows(new Set([stateHash({ message: MARKER })])), true), {
      code: 'EACCES',
    })
    chmodSync(ro, 0o700)
    t.equal(readFileSync(file, 'utf8'), before)
    t.same(readdirSync(ro), ['spam.reviews.csv'])
  },
)

t.test('a retraction line whose state is not a state still goes with its row', async (t) => {
  const file = join(t.testdir(), 'spam.reviews.csv')
  const hash = stateHash({ message: MARKER })
  const retraction = (state: string) => [
    `2026-01-01T00:01:00.000,bob,spam,is_spam,${hash},unsure,retracted,[],no,,${state},unsure,1\n`,
  ]
  writeFileSync(file, REVIEW_COLUMNS.join(',') + '\n' + retraction(`"${MARKER}"`) + retraction('') + retraction('[1]'))
  t.same(
    await forgetReviewStates(file, pickRows(new Set([hash])), true),
    new Map([[hash, 2]]),
    'text and a list go; an empty cell holds nothing',
  )
  t.equal(readFileSync(file).indexOf(MARKER), -1)
})
