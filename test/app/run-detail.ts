import t from 'tap'
import type { App } from '../../src/app/app.ts'
import { runDetail } from '../../src/app/run-detail.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { RunRecord } from '../../src/core/types.ts'
import { NotFoundError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { verdict } from '../helpers/files-contract.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec(
  'name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\n  tone:\n    ask: Tone?\n    labels: [warm, cold]\n',
)
const messages = ['a', 'b', 'c', 'd', 'e']
const hashes = messages.map((message) => stateHash({ message }))

function run(over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: 'r1',
    judgment: 'spam',
    spec_hash: spam.hash,
    git_sha: '',
    model: 'm',
    rows: 7,
    asked: 4,
    cost: 0,
    status: 'complete',
    started_at: '2026-01-01T00:00:00.000',
    finished_at: '2026-01-01T00:00:01.000',
    cached: 6,
    requests: 4,
    command: 'run',
    source: 'messages.csv',
    source_hash: '0123456789abcdef',
    node: 'spam',
    reported_model: 'm-1',
    states: 5,
    fingerprints: {},
    fit: {},
    routes: {},
    sources: {},
    ...over,
  }
}

/** A store holding run r1 over five states (the first on three rows), with is_spam answered for all but "e". */
function setup(): { a: App; files: ReturnType<typeof createMemoryFiles> } {
  const store = createMemoryStore()
  const [isSpam] = spam.questions
  messages.forEach((message, i) => {
    if (message === 'e') return store.putAnswers([], hashes[i], { message })
    const spam = i % 2 === 0
    store.putAnswers(
      [
        {
          model: 'm',
          fingerprint: isSpam.fingerprint,
          stateHash: hashes[i],
          judgment: 'spam',
          question: 'is_spam',
          distribution: { yes: spam ? 0.9 : 0.2, no: spam ? 0.1 : 0.8 },
          label: spam ? 'yes' : 'no',
          p: spam ? 0.9 : 0.8,
          margin: spam ? 0.8 : 0.6,
          askedAt: 'x',
        },
      ],
      hashes[i],
      { message },
    )
  })
  const counts = [
    { run_id: 'r1', question: 'is_spam', label: 'yes', count: 5 },
    { run_id: 'r1', question: 'is_spam', label: 'no', count: 2 },
    { run_id: 'r1', question: 'gone', label: 'x', count: 7 },
  ]
  store.recordRun(
    run(),
    counts,
    hashes.map((h, i) => ({ stateHash: h, rows: i === 0 ? 3 : 1 })),
  )
  store.recordRun(run({ run_id: 'other', judgment: 'tone' }), [])
  const files = createMemoryFiles()
  return { a: app(deps(null, store), files), files }
}

const sorted = [...hashes].sort()

t.test(
  'a run with its label counts in spec order, and a page of its states with their values and answers',
  async (t) => {
    const { a } = setup()
    const detail = await runDetail(a, project(spam), 'r1', 1, 2)
    t.same(detail.run, run())
    t.equal(detail.spec_changed, false)
    t.same(detail.labels, { is_spam: { yes: 5, no: 2 }, tone: { warm: 0, cold: 0 }, gone: { x: 7 } })
    t.equal(detail.states, 5)
    t.same(detail.page, { number: 1, pages: 3, size: 2, first: 1 })
    t.same(
      detail.rows.map((r) => r.state_hash),
      sorted.slice(0, 2),
    )
    const first = (await runDetail(a, project(spam), 'r1', 1, 10)).rows.find((r) => r.state_hash === hashes[0])
    t.same(first, {
      state_hash: hashes[0],
      rows: 3,
      state: { message: 'a' },
      answers: { is_spam: { label: 'yes', p: 0.9, margin: 0.8, verdict: null }, tone: null },
    })
    t.same(
      (await runDetail(a, project(spam), 'r1', 3, 2)).rows.map((r) => r.state_hash),
      sorted.slice(4),
      'the last page',
    )
    t.match(
      await runDetail(a, project(spam), 'r1', 99, 2),
      { page: { number: 3, first: 5 } },
      'a page past the last shows the last',
    )
  },
)

t.test("a row's answers carry the verdict standing on them", async (t) => {
  const { a, files } = setup()
  await files.appendVerdict(spam, verdict('b', { verdict: 'labeled', labels: ['yes'] }))
  const rows = (await runDetail(a, project(spam), 'r1', 1, 10)).rows
  t.same(rows.find((r) => r.state_hash === hashes[1])!.answers.is_spam!.verdict, {
    verdict: 'labeled',
    text: 'it is yes',
  })
  t.same(rows.find((r) => r.state_hash === hashes[4])!.answers, { is_spam: null, tone: null }, 'no answer in the store')
})

t.test('a spec edited since the run is flagged', async (t) => {
  const { a } = setup()
  const edited = spec('name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam now?\n    type: yes_no\n')
  t.equal((await runDetail(a, project(edited), 'r1', 1)).spec_changed, true)
})

t.test('an unknown run, a run of another judgment, or no store is a 404', async (t) => {
  const { a } = setup()
  await t.rejects(runDetail(a, project(spam), 'nope', 1), NotFoundError)
  await t.rejects(runDetail(a, project(spam), 'other', 1), {
    status: 404,
    message: /no run "other" of spam in the store of \/specs/,
  })
  const bare: App = { ...a, existingStore: () => null }
  await t.rejects(runDetail(bare, project(spam), 'r1', 1), NotFoundError)
})

t.test('a run recorded without its states lists no rows', async (t) => {
  const { a } = setup()
  a.existingStore(project(spam))!.recordRun(run({ run_id: 'bare', states: 0 }), [])
  t.match(await runDetail(a, project(spam), 'bare', 1), {
    states: 0,
    rows: [],
    page: { number: 1, pages: 1, first: 0 },
  })
})
