import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { accuracyReport } from '../../src/app/accuracy.ts'
import { accuracySummary } from '../../src/app/accuracy-summary.ts'
import { queueData } from '../../src/app/review-data.ts'
import { tidy } from '../../src/core/judge/answer.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { verdictKey, type AnswerKey, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import { gridCells } from '../../src/core/tally/cells.ts'
import type { Project, Spec } from '../../src/core/types.ts'
import type { Store } from '../../src/ports/store.ts'
import { app, deps } from '../helpers/deps.ts'
import { seededRandom } from '../../src/core/stats/seeded-random.ts'
import { spec as parse } from '../helpers/specs.ts'

// The figures of GET /v1/accuracy, `judge test` and the review queue read the store's answer tally
// (its cells and its counts of a band); here each is set beside the same figures from a full read
// of the answers, on random stores whose answers were added and deleted by every path there is.

const hundredth = (random: () => number, low: number, high: number) =>
  Math.round((low + random() * (high - low)) * 100) / 100

function randomSpec(random: () => number): Spec {
  return parse(`name: spam
model: m
state: [message]
unsure_below: ${hundredth(random, 0.05, 0.5)}
questions:
  is_spam: {ask: Spam?, type: yes_no}
  topic: {ask: Topic?, labels: [personal, promotion, service]}
act:
  is_spam:
    - route: block
      when: {label: yes, p: ">= ${hundredth(random, 0.6, 0.99)}"}
    - route: review
      when: {margin: "< ${hundredth(random, 0.1, 0.5)}"}
    - route: deliver
  topic:
    - route: promote
      when: {label: promotion, margin: "> ${hundredth(random, 0.1, 0.9)}"}
    - route: keep
`)
}

/** A distribution over the labels, some of its values hundredths and some not, read as judging does. */
function answerOf(random: () => number, spec: Spec, q: number, hash: string) {
  const question = spec.questions[q]
  const raw = question.labels.map(() => (random() < 0.3 ? Math.round(random() * 20) : random() * 20) ** 2)
  const sum = raw.reduce((a, b) => a + b, 0) || 1
  const distribution = Object.fromEntries(
    question.labels.map((l, i) => [l, random() < 0.4 ? Math.round((raw[i] / sum) * 100) / 100 : raw[i] / sum]),
  )
  const ranked = question.labels.map((l) => distribution[l]).sort((a, b) => b - a)
  const label = question.labels.find((l) => distribution[l] === ranked[0])!
  return {
    model: 'm',
    fingerprint: question.fingerprint,
    stateHash: hash,
    judgment: 'spam',
    question: question.name,
    distribution,
    label,
    p: tidy(ranked[0]),
    margin: tidy(ranked[0] - ranked[1]),
    askedAt: '2026-01-01T00:00:00.000',
  }
}

/** The store with every figure read from its answers, never from the tally. */
function fullRead(store: Store): Store {
  return {
    ...store,
    answerCells: (model, fingerprint) => store.answerCells(model, fingerprint, 'exact'),
    countAnswers: (model, fingerprint, band) =>
      store
        .answerCells(model, fingerprint, 'exact')
        .filter((c) => !band || (c.margin >= band.from && c.margin < band.below))
        .reduce((n, c) => n + c.count, 0),
  }
}

function verdictOn(
  random: () => number,
  spec: Spec,
  q: number,
  hash: string,
  message: string,
): [string, VerdictRecord] {
  const question = spec.questions[q]
  const labels = [question.labels[Math.floor(random() * question.labels.length)]]
  return [
    verdictKey('spam', question.name, hash),
    {
      reviewed_at: '2026-01-02T00:00:00.000',
      reviewer: random() < 0.5 ? 'ann' : 'bob',
      judgment: 'spam',
      question: question.name,
      state_hash: hash,
      kind: 'spot_check',
      verdict: 'labeled',
      labels,
      model_label: question.labels[0],
      key_label: null,
      state: { message },
      stratum: null,
      rank: null,
    },
  ]
}

t.test('on random stores, every figure from the tally is the figure of a full read', async (t) => {
  const dir = t.testdir()
  for (let round = 0; round < 12; round++) {
    const random = seededRandom(1000 + round)
    const spec = randomSpec(random)
    const project: Project = { path: '/p/spam.judge.yaml', dir: '/p', specs: [spec], selected: [spec] }
    const file = join(dir, `store-${round}.sqlite`)
    const store = openSqliteStore(file)
    const messages = Array.from({ length: 150 + Math.floor(random() * 300) }, (_, i) => `message ${round}-${i}`)
    for (const message of messages) {
      const hash = stateHash({ message })
      store.putAnswers(
        spec.questions.map((_, q) => answerOf(random, spec, q, hash)),
        hash,
        { message },
      )
    }
    // Written again: the store keeps the first answer and the tally must not count the second.
    for (const message of messages.slice(0, 20))
      store.putAnswers([answerOf(random, spec, 0, stateHash({ message }))], stateHash({ message }), { message })
    // Deleted by another connection, one row at a time, and a whole wording at once.
    const other = new DatabaseSync(file)
    other.prepare('DELETE FROM _judge_answers WHERE state_hash = ?').run(stateHash({ message: messages[3] }))
    other.close()
    store.putAnswers([{ ...answerOf(random, spec, 0, 'h-old'), fingerprint: 'fp-old' }], 'h-old', { message: 'old' })
    store.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'm', fingerprint: 'fp-old' })
    const reviewed = messages.filter(() => random() < 0.3)
    const verdicts = new Map(
      reviewed.flatMap((message) =>
        spec.questions.map((_, q) => verdictOn(random, spec, q, stateHash({ message }), message)),
      ),
    )
    const key: AnswerKey = new Map(
      messages
        .filter(() => random() < 0.1)
        .map((message, i) => [
          stateHash({ message }),
          {
            stateHash: stateHash({ message }),
            state: { message },
            where: `key.csv:${i + 2}`,
            labels: { is_spam: random() < 0.5 ? 'yes' : 'no', topic: 'promotion' },
          },
        ]),
    )
    const files = {
      key: async () => key,
      verdicts: async () => verdicts,
      reviews: async () => new Map([...verdicts].map(([k, v]) => [k, [v]])),
    }
    const tallied = app(deps(null, store), files)
    const read = app(deps(null, fullRead(store)), files)
    for (const question of spec.questions) {
      const exact = store.answerCells('m', question.fingerprint, 'exact')
      t.same(
        store.answerCells('m', question.fingerprint, 'grid'),
        gridCells(exact),
        `round ${round} ${question.name}: the tally holds the full read's cells`,
      )
    }
    t.same(
      await accuracyReport(tallied, project, spec),
      await accuracyReport(read, project, spec),
      `round ${round}: GET /v1/accuracy`,
    )
    t.same(
      await accuracySummary(tallied, project, spec),
      await accuracySummary(read, project, spec),
      `round ${round}: judge test and /`,
    )
    const source = (s: Store) => ({ store: s, model: 'm', spec, key, verdicts })
    t.same(
      queueData(source(store), { spotChecks: 10 }),
      queueData(source(fullRead(store)), { spotChecks: 10 }),
      `round ${round}: the review queue`,
    )
    store.close()
  }
})

t.test(
  'a spec comparing with values between hundredths reads every exact value, and its figures stay exact',
  async (t) => {
    const random = seededRandom(77)
    const spec = parse(
      `name: spam\nmodel: m\nstate: [message]\nunsure_below: 0.125\nquestions:\n  is_spam: {ask: Spam?, type: yes_no}\nact:\n  is_spam:\n    - route: block\n      when: {label: yes, p: ">= 0.875"}\n`,
    )
    const project: Project = { path: '/p/spam.judge.yaml', dir: '/p', specs: [spec], selected: [spec] }
    const store = openSqliteStore(':memory:')
    t.teardown(() => store.close())
    for (let i = 0; i < 300; i++) {
      const hash = stateHash({ message: `m${i}` })
      store.putAnswers([answerOf(random, spec, 0, hash)], hash, { message: `m${i}` })
    }
    const report = await accuracyReport(app(deps(null, store)), project, spec)
    t.same(report, await accuracyReport(app(deps(null, fullRead(store))), project, spec))
    const exact = store.answerCells('m', spec.questions[0].fingerprint, 'exact')
    const routed = exact.filter((c) => c.label === 'yes' && c.p >= 0.875).reduce((n, c) => n + c.count, 0)
    t.equal(
      report.questions.is_spam.thresholds[0].current.routed,
      routed,
      'the rule at 0.875 counts exactly the answers it routes',
    )
  },
)
