import t, { type Test } from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appendVerdict } from '../../src/adapters/files/reviews-file.ts'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { readConfig } from '../../src/config.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { createHandler } from '../../src/http/handler.ts'
import {
  applyRetention,
  retentionLine,
  startRetention,
  unrefSchedule,
  type Schedule,
} from '../../src/http/retention.ts'
import type { Resolved } from '../../src/http/resolved-paths.ts'
import { answer } from '../helpers/contracts/answer-store.ts'
import { serverContext } from '../helpers/server-context.ts'
import { SPAM_YAML } from '../helpers/specs.ts'
import { unsureVerdict } from '../helpers/spam-answers.ts'

const OLD = 'an old message from Dana'
const NEW = 'a message from this week'
const NOW = new Date('2026-04-30T00:00:00.000Z')

/** Served folders: sms keeps 30 days of rows and holds one from January and one from this week; broken does not load. */
async function served(t: Test): Promise<string> {
  const dir = t.testdir({
    sms: { 'spam.judge.yaml': `${SPAM_YAML}retain_days: 30\n` },
    plain: { 'spam.judge.yaml': SPAM_YAML },
    broken: { 'x.judge.yaml': 'questions: [' },
  })
  const store = openSqliteStore(join(dir, 'sms', '.judge', 'store.sqlite'))
  for (const [message, at] of [
    [OLD, '2026-01-05T00:00:00.000'],
    [NEW, '2026-04-28T00:00:00.000'],
  ]) {
    store.putAnswers([answer({ stateHash: stateHash({ message }), askedAt: at })], stateHash({ message }), { message })
    store.keepRow('spam', stateHash({ message }), { message }, at)
    await appendVerdict(join(dir, 'sms', 'spam.reviews.csv'), unsureVerdict(message, { reviewed_at: at }))
  }
  store.close()
  return dir
}

const holds = (dir: string, text: string) =>
  ['.judge/store.sqlite', 'spam.reviews.csv'].map((f) => readFileSync(join(dir, 'sms', f)).includes(text))

/** A schedule whose timers a test fires by hand. */
function manual() {
  const timers: { work: () => void; ms: number; cancelled: boolean }[] = []
  const schedule: Schedule = (work, ms) => {
    const timer = { work, ms, cancelled: false }
    timers.push(timer)
    return () => void (timer.cancelled = true)
  }
  return { timers, schedule }
}

t.test(
  'a pass forgets what each judgment keeps past its retain_days, logs it, and drops the kept replies',
  async (t) => {
    const dir = await served(t)
    const logs: string[] = []
    const ctx = { ...serverContext(t, dir), now: () => NOW, log: (line: string) => logs.push(line) }
    ctx.runtime = { ...ctx.runtime, now: () => NOW }
    ctx.replies.set('body', {
      reply: { status: 200, type: 'json', body: '{}' },
      resolved: { current: true } as Resolved,
      answers: [],
    })
    await applyRetention(ctx)
    t.same(holds(dir, OLD), [false, false])
    t.same(holds(dir, NEW), [true, true])
    t.same(logs, [
      'retain_days 30 of sms/spam: forgot the values of 1 rows, the state of 1 reviews-file lines and 1 kept rows, older than 2026-03-31T00:00:00.000',
    ])
    t.equal(ctx.replies.get('body'), undefined)
    await applyRetention(ctx)
    t.equal(logs.length, 1, 'nothing more to forget: nothing logged')
  },
)

t.test('a folder that fails is logged and passed over; the next pass tries again', async (t) => {
  const dir = await served(t)
  writeFileSync(join(dir, 'sms', 'spam.reviews.csv'), 'not,a,reviews,file\n')
  const logs: string[] = []
  const ctx = { ...serverContext(t, dir), log: (line: string) => logs.push(line) }
  ctx.runtime = { ...ctx.runtime, now: () => NOW }
  await applyRetention(ctx)
  t.match(logs, [
    /^retain_days of sms: sms\/spam\.reviews\.csv: not a reviews file: the header lacks reviewed_at.*; tried again at the next pass$/,
  ])
})

t.test('the passes run first soon after the start, then once a day, and stop for good', async (t) => {
  const dir = await served(t)
  const { timers, schedule } = manual()
  const ctx = serverContext(t, dir)
  const stop = startRetention(ctx, { schedule })
  t.same(
    timers.map((x) => x.ms),
    [60_000],
  )
  timers[0].work()
  await ctx.tasks.idle()
  t.same(
    timers.map((x) => x.ms),
    [60_000, 86_400_000],
    'the next pass a day later',
  )
  timers[1].work()
  stop()
  await ctx.tasks.idle()
  t.equal(timers.length, 2, 'a pass under way when stopped schedules no other')
  stop()
  t.ok(timers[1].cancelled)
})

t.test('the real timer runs the work, can be cancelled, and keeps no process alive', async (t) => {
  let ran = 0
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
  const before = timers()
  const cancel = unrefSchedule(() => ran++, 1)
  unrefSchedule(() => ran++, 1)()
  const waiting = unrefSchedule(() => ran++, 60_000)
  t.equal(timers(), before, 'no timer holds the process')
  await new Promise((done) => setTimeout(done, 20))
  t.equal(ran, 1)
  cancel()
  waiting()
})

t.test('a server applies retention on its schedule, with its clock, and stops on shutdown', async (t) => {
  const dir = await served(t)
  const { timers, schedule } = manual()
  const logs: string[] = []
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir }, dir), {
    now: () => NOW,
    log: (l) => logs.push(l),
    retention: { schedule, firstMs: 5 },
  })
  t.same(
    timers.map((x) => x.ms),
    [5],
  )
  timers[0].work()
  await handler.idle()
  t.match(logs, [/^retain_days 30 of sms\/spam: forgot the values of 1 rows/])
  t.same(holds(dir, OLD), [false, false])
  await handler.close()
  t.ok(timers[1].cancelled, 'the next pass is cancelled on shutdown')
})

t.test("the log line names counts, never values, and says when the store's log could not be emptied", async (t) => {
  const j = {
    judgment: 'spam',
    retain_days: 7,
    before: '2026-01-01T00:00:00.000',
    states: [],
    reviews_files: [],
    log_cleared: false,
    removed: { values: 2, kept_rows: 3, review_lines: 5 },
  }
  t.equal(
    retentionLine('.', j),
    "retain_days 7 of spam: forgot the values of 2 rows, the state of 5 reviews-file lines and 3 kept rows, older than 2026-01-01T00:00:00.000; the store's log could not be emptied (another process was reading)",
  )
})
