import t from 'tap'
import { accuracyReport, accuracyTargets } from '../../src/app/accuracy.ts'
import type { App } from '../../src/app/app.ts'
import type { Project } from '../../src/core/types.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { putSpam, spamVerdict } from '../helpers/spam-answers.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

const judgment = spec(SPAM_YAML.replace('name: spam\n', 'name: spam\nmodel: m\n'))
const project: Project = { path: '/p/spam.judge.yaml', dir: '/p', specs: [judgment], selected: [judgment] }
const isSpam = judgment.questions[0]

t.test('the report gives each question its estimate, calibration, thresholds and mix, and the act block', async (t) => {
  const store = createMemoryStore()
  const messages = Array.from({ length: 60 }, (_, i) => `m${i}`)
  messages.forEach((m, i) => putSpam(store, isSpam, m, i < 10 ? 0.55 : 0.97))
  const verdicts = new Map(messages.map((m) => spamVerdict(m, 'confirmed', ['yes'])))
  const report = await accuracyReport(
    app(deps(null, store), { reviews: async () => new Map([...verdicts].map(([k, v]) => [k, [v]])) }),
    project,
    judgment,
    0.9,
  )
  t.match(report, { judgment: 'spam', model: 'm', unsure_below: 0.2, key_sample: 'chosen', target: 0.9 })
  t.same(Object.keys(report.questions), ['is_spam', 'topic', 'urgency'])
  const q = report.questions.is_spam
  t.match(
    q.estimate,
    { estimable: true, point: 1, needed: 0, naive: { accuracy: 1, counted: 60 } },
    'every row reviewed: a census',
  )
  t.match(q.calibration, { covered: 1 })
  t.match(q.thresholds, [{ route: 'block', variable: 'p', current: { comparison: '>= 0.95', routed: 50 } }])
  t.match(q.mix, { labels: ['yes', 'no'], raw: { yes: 1, no: 0 } })
  t.match(report.act, /^act:\n {2}is_spam:\n {4}# /)
  t.match(
    report.questions.topic.estimate,
    { estimable: false, strata: [{ size: 0 }, { size: 0 }] },
    'no answers for topic',
  )
})

t.test('without a store the report has no answers, and neither opens nor creates one', async (t) => {
  const none: App = {
    ...app(deps(null)),
    existingStore: () => null,
    depsFor: () => t.fail('the store was opened') as never,
  }
  const report = await accuracyReport(none, project, judgment)
  t.match(report, { model: 'm', target: 0.95 })
  t.match(report.questions.is_spam.estimate, { estimable: false, point: null })
  t.same(report.questions.is_spam.calibration.ece, null)
  t.match(report.questions.is_spam.thresholds, [{ suggested: null, table: [] }])
  t.equal(report.act?.includes('kept as it is'), true)
  const bare = spec(SPAM_YAML.replace(/act:[\s\S]*$/, ''))
  t.equal((await accuracyReport(none, project, bare)).act, null, 'no act, no block')
  t.equal((await accuracyReport(none, project, bare)).model, null, 'no store and no model named')
})

t.test('the judgments a request covers: the node, or every one selected', async (t) => {
  t.same(
    accuracyTargets(project, null).map((s) => s.name),
    ['spam'],
  )
  t.throws(() => accuracyTargets(project, 'other'), { name: 'UsageError' })
})
