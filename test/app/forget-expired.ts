import t from 'tap'
import { forgetExpired } from '../../src/app/forget-expired.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { VerdictRecord } from '../../src/core/review/verdicts.ts'
import { answer } from '../helpers/contracts/answer-store.ts'
import { pair } from '../helpers/contracts/kept-store.ts'
import { run } from '../helpers/contracts/run-store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'
import { unsureVerdict } from '../helpers/spam-answers.ts'

const spam = spec(`${SPAM_YAML}retain_days: 30\n`)
// Worded otherwise: a question worded alike in two judgments shares its answers, and so its rows.
const keeper = spec(
  SPAM_YAML.replace('name: spam', 'name: keeper')
    .replace('state: [message]', 'state: [sender]')
    .replace('or a scam?', 'from this sender?'),
  '/specs/keeper.judge.yaml',
)
const [isSpam] = spam.questions
const h = (message: string) => stateHash({ message })

function verdict(message: string, reviewedAt: string): VerdictRecord {
  return unsureVerdict(message, { reviewed_at: reviewedAt })
}

/** A store and reviews file with rows of spam from 40, 35, 20 and 5 days before the clock, and a row of another judgment, old. */
function world(now: Date) {
  const store = createMemoryStore()
  const day = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().replace('Z', '')
  const put = (message: string, daysAgo: number, fingerprint = isSpam.fingerprint) =>
    store.putAnswers([answer({ stateHash: h(message), fingerprint, askedAt: day(daysAgo) })], h(message), { message })
  put('forty', 40)
  put('thirty-five', 35, 'fp-old-wording')
  put('twenty', 20)
  store.keepRow('spam', h('five'), { message: 'five' }, day(5))
  store.keepRow('spam', h('twenty'), { message: 'twenty' }, day(40))
  store.recordShadow([pair({ stateHash: h('twenty'), at: day(35) }), pair({ stateHash: h('five'), at: day(5) })])
  store.putAnswers(
    [
      answer({
        stateHash: stateHash({ sender: 'ann' }),
        fingerprint: keeper.questions[0].fingerprint,
        askedAt: day(400),
      }),
    ],
    stateHash({ sender: 'ann' }),
    { sender: 'ann' },
  )
  store.recordRun(run({ judgment: 'spam', fingerprints: { is_spam: 'fp-old-wording' } }), [])
  const files = createMemoryFiles({
    verdicts: { [spam.reviews]: [verdict('forty', day(39)), verdict('twenty', day(10))] },
  })
  const a = { ...app(deps(null, store), files), now: () => now }
  return { store, files, app: a, day }
}

t.test("retention forgets each copy older than retain_days by its own time, and only that judgment's", async (t) => {
  const now = new Date('2026-03-31T12:00:00.000Z')
  const w = world(now)
  const input = {
    project: { ...project(spam, keeper), selected: [spam, keeper] },
    apply: true,
    command: 'judge forget --expired',
  }
  const report = await forgetExpired(w.app, input)
  t.equal(report.judgments.length, 1, 'a judgment without retain_days is passed over')
  const [spamReport] = report.judgments
  t.match(spamReport, { judgment: 'spam', retain_days: 30, before: '2026-03-01T12:00:00.000', log_cleared: true })
  t.same(spamReport.removed, { values: 2, kept_rows: 1, review_lines: 1 })
  t.same(
    [...w.store.getStates([h('forty'), h('thirty-five'), h('twenty'), h('five')]).keys()],
    [h('twenty'), h('five')],
    'values stored 40 and 35 days ago go (the older wording a run recorded counts); 20 and 5 stay',
  )
  t.same(
    w.store.keptRows('spam').map((r) => r.stateHash),
    [h('five')],
    'the row kept 40 days ago goes, its values stay (stored since)',
  )
  t.same(
    w.store
      .shadowPairs('spam')
      .map((p) => p.stateHash)
      .sort(),
    [h('twenty'), h('five')].sort(),
    'shadow pairs hold no values: they stay, however old',
  )
  t.same(
    [...(await w.files.reviews(spam)).values()].map(([v]) => [v.state_hash, v.state]),
    [
      [h('forty'), {}],
      [h('twenty'), { message: 'twenty' }],
    ],
  )
  t.equal(w.store.getStates([stateHash({ sender: 'ann' })]).size, 1, "another judgment's row stays, however old")
  t.ok(w.store.forgottenLines().every((l) => l.command === 'retain_days 30 of spam (judge forget --expired)'))
  const again = await forgetExpired(w.app, input)
  t.same(again.judgments[0].states, [], 'the next pass finds nothing more')
})

t.test(
  'the clock decides: 11 days on, values stored 20 days before go, and the verdict given 10 days before stays',
  async (t) => {
    let now = new Date('2026-03-31T12:00:00.000Z')
    const w = world(now)
    const a = { ...w.app, now: () => now }
    const input = { project: project(spam), apply: false, command: 'server' }
    t.match(
      (await forgetExpired(a, input)).judgments[0].states.find((s) => s.state_hash === h('twenty')),
      { values: false, kept_rows: 1, review_lines: 0 },
      'only its old kept row',
    )
    now = new Date(now.getTime() + 11 * 86_400_000)
    const later = await forgetExpired(a, { ...input, apply: true })
    t.match(
      later.judgments[0].states.find((s) => s.state_hash === h('twenty')),
      { values: true, review_lines: 0 },
    )
    t.equal(later.dry_run, false)
  },
)

t.test('a dry run removes nothing, and a project with no retain_days opens no store', async (t) => {
  const w = world(new Date('2026-03-31T12:00:00.000Z'))
  const dry = await forgetExpired(w.app, { project: project(spam), apply: false, command: 'x' })
  t.equal(dry.dry_run, true)
  t.equal(dry.judgments[0].log_cleared, null)
  t.equal(w.store.getStates([h('forty')]).size, 1)
  let asked = 0
  const none = await forgetExpired(
    { ...w.app, existingStore: () => ((asked += 1), null) },
    { project: project(keeper), apply: true, command: 'x' },
  )
  t.same(none, { dry_run: false, judgments: [] })
  t.equal(asked, 0)
  const empty = await forgetExpired(
    { ...w.app, existingStore: () => null },
    { project: project(spam), apply: true, command: 'x' },
  )
  t.same(empty.judgments[0].removed.values, 0, 'without a store only the reviews file is looked at')
})
