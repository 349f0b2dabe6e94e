import t, { type Test } from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appendVerdict } from '../../../src/adapters/files/reviews-file.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import type { Store } from '../../../src/ports/store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { cli } from '../../helpers/cli.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { unsureVerdict } from '../../helpers/spam-answers.ts'

const SECRET = 'call me on 555-0199, it is Dana'
const secret = stateHash({ message: SECRET })

/** A project whose store and reviews file hold the secret row and another; the store is closed. */
async function project(t: Test, yaml = SPAM_YAML) {
  const dir = t.testdir({ 'spam.judge.yaml': yaml, 'gone.jsonl': `${JSON.stringify({ message: SECRET })}\n` })
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  for (const [message, at] of [
    [SECRET, '2026-01-01T00:00:00.000'],
    ['See you at lunch', '2026-03-30T00:00:00.000'],
  ]) {
    const hash = stateHash({ message })
    store.putAnswers([answer({ stateHash: hash, askedAt: at })], hash, { message })
    store.keepRow('spam', hash, { message }, at)
    await appendVerdict(join(dir, 'spam.reviews.csv'), unsureVerdict(message, { reviewed_at: at }))
  }
  store.close()
  return dir
}

const holds = (dir: string) =>
  [readFileSync(join(dir, '.judge', 'store.sqlite')), readFileSync(join(dir, 'spam.reviews.csv'))].map((b) =>
    b.includes(SECRET),
  )

t.test('without --yes, judge forget says what would go and removes nothing', async (t) => {
  const dir = await project(t)
  const result = await cli(['forget', 'spam.judge.yaml', '--row', JSON.stringify({ message: SECRET, id: 9 })], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(result.stdout, new RegExp(`^${secret}\\s+yes\\s+1\\s+1$`, 'm'))
  t.match(result.stdout, /nothing was removed \(give --yes to forget\)/)
  t.same(holds(dir), [true, true])
})

t.test('with --yes every copy goes, bytes and all, and --json gives the report', async (t) => {
  const dir = await project(t)
  const result = await cli(['forget', 'spam.judge.yaml', '--state', secret, '--yes', '--json'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(JSON.parse(result.stdout), {
    dry_run: false,
    states: [{ state_hash: secret, values: true, kept_rows: 1, review_lines: 1 }],
    log_cleared: true,
    key_files: [],
  })
  t.same(holds(dir), [false, false])
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  t.teardown(() => store.close())
  t.same(
    [...new Set(store.forgottenLines().map((l) => l.command))],
    ['judge forget --state'],
    'the forget log names the flags, never the values',
  )
  t.equal(store.getAnswers('jev-1', secret, ['fp-spam']).size, 1)
})

t.test('a file of rows and a column value name rows too', async (t) => {
  const dir = await project(t)
  t.match(await cli(['forget', 'spam.judge.yaml', '--rows', 'gone.jsonl', '--json'], {}, dir), {
    code: 0,
    stdout: new RegExp(secret),
  })
  const matched = await cli(['forget', 'spam.judge.yaml', '--match', `message=${SECRET}`, '--yes'], {}, dir)
  t.match(
    matched.stdout,
    /^forgot 1 row: the values of 1 row in the store, 1 kept row and the state of 1 reviews-file line \(spam\.reviews\.csv\)$/m,
  )
  t.same(holds(dir), [false, false])
})

t.test('--expired applies retain_days by the clock', async (t) => {
  const dir = await project(t, `${SPAM_YAML}retain_days: 30\n`)
  const now = () => new Date('2026-04-15T00:00:00.000Z')
  const dry = await cli(['forget', 'spam.judge.yaml', '--expired'], {}, dir, { now })
  t.match(dry.stdout, /^spam \(retain_days 30: what is older than 2026-03-16T00:00:00\.000\):$/m)
  const done = await cli(['forget', 'spam.judge.yaml', '--expired', '--yes', '--json'], {}, dir, { now })
  t.equal(done.code, 0, done.stderr)
  t.same(
    JSON.parse(done.stdout).judgments.map((j: { states: { state_hash: string }[] }) =>
      j.states.map((s) => s.state_hash),
    ),
    [[secret]],
  )
  t.same(holds(dir), [false, false])
  t.match(readFileSync(join(dir, 'spam.reviews.csv'), 'utf8'), /See you at lunch/, 'the recent row stays')
  const none = await cli(['forget', '.', '--expired'], {}, t.testdir({ 'spam.judge.yaml': SPAM_YAML }))
  t.match(none, { code: 0, stdout: 'no judgment of . sets retain_days: nothing expires\n' })
})

t.test('a log another process kept reading exits 1, saying to forget again', async (t) => {
  const dir = await project(t, `${SPAM_YAML}retain_days: 30\n`)
  const openStore = (file: string): Store => {
    const store = openSqliteStore(file)
    return { ...store, forget: (plan, stamp) => ({ ...store.forget(plan, stamp), logCleared: false }) }
  }
  const rows = await cli(['forget', 'spam.judge.yaml', '--state', secret, '--yes'], {}, dir, { openStore })
  t.match(rows, {
    code: 1,
    stdout:
      /^warning: another process was reading the store, so its write-ahead log may still hold old copies; run the same forget again to empty it$/m,
  })
  const expired = await cli(['forget', 'spam.judge.yaml', '--expired', '--yes'], {}, dir, {
    openStore,
    now: () => new Date('2030-01-01T00:00:00.000Z'),
  })
  t.match(expired, { code: 1, stdout: /run the same forget again/ })
})

t.test('nothing kept of a row says so, and makes no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  t.match(await cli(['forget', 'spam.judge.yaml', '--row', '{"message":"x"}', '--yes'], {}, dir), {
    code: 0,
    stdout: 'judge keeps nothing of these rows: nothing to forget\n',
  })
  t.notOk(existsSync(join(dir, '.judge')))
})

t.test('usage errors exit 2 before anything is read', async (t) => {
  const dir = await project(t)
  const fails = async (args: string[], message: RegExp) =>
    t.match(await cli(['forget', 'spam.judge.yaml', ...args], {}, dir), { code: 2, stderr: message })
  await fails([], /name the rows to forget with --row, --rows, --state or --match, or give --expired/)
  await fails(['--expired', '--state', secret], /--expired forgets by age, not --state/)
  await fails(['--row', 'nope'], /--row takes a JSON object of the row's columns.*this is not JSON/)
  await fails(['--row', '[1]'], /--row takes a JSON object/)
  await fails(['--state', 'abc'], /a state hash is 16 lowercase hex digits/)
  await fails(['--match', 'message'], /--match takes COLUMN=VALUE/)
  await fails(['--match', 'text=x'], /"text" is not a state column of spam/)
  t.match(await cli(['forget', 'spam.judge.yaml', '--json'], {}, dir), { code: 2, stdout: /"error"/ })
  t.same(holds(dir), [true, true])
})
