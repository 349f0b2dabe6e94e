import t from 'tap'
import { accuracySummary } from '../../src/app/accuracy-summary.ts'
import { accuracyReport } from '../../src/app/accuracy.ts'
import type { App } from '../../src/app/app.ts'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Question, State } from '../../src/core/types.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { verdict } from '../helpers/files-contract.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec(
  'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\nkey: spam.key.csv\n',
)
const KEY = [
  { message: 'WIN now', is_spam: 'yes' },
  { message: 'hello', is_spam: 'yes' },
  { message: 'lunch', is_spam: 'no' },
]
const answer = (_q: Question, s: State) => (/WIN/.test(s.message) ? { yes: 0.9, no: 0.1 } : { yes: 0.2, no: 0.8 })

t.test("each question's estimate, interval and reviews waiting are those of the accuracy report", async (t) => {
  const files = createMemoryFiles({ keys: { '/specs/spam.key.csv': KEY } })
  const a = app(deps(createFakeEngine({ answer })), files)
  for (const row of KEY) await judgeRequest(a, { project: project(spam), row: { message: row.message }, cap: 1 })
  const before = (await accuracySummary(a, project(spam), spam)).is_spam
  t.match(before, { answers: 3, pending: 1, reviewed: 0 })
  await files.appendVerdict(
    spam,
    verdict('lunch', { judgment: 'spam', reviewer: 'ann', state_hash: stateHash({ message: 'lunch' }) }),
  )
  const summary = (await accuracySummary(a, project(spam), spam)).is_spam
  const report = (await accuracyReport(a, project(spam), spam)).questions.is_spam.estimate
  t.same(summary, {
    answers: 3,
    estimable: report.estimable,
    estimate: report.estimable ? report.point : null,
    interval: report.estimable ? report.interval : null,
    needed: report.needed,
    pending: 1,
    reviewed: 1,
  })
})

t.test('a folder without a store has no answers yet, and reading opens none', async (t) => {
  const bare: App = {
    ...app(deps(null)),
    existingStore: () => null,
    depsFor: () => t.fail('no store is opened') as never,
  }
  t.same(await accuracySummary(bare, project(spam), spam), {
    is_spam: { answers: 0, estimable: false, estimate: null, interval: null, needed: 0, pending: 0, reviewed: 0 },
  })
})
