import t from 'tap'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { replayKept, type ReplayInput } from '../../src/app/replay.ts'
import type { DepsWith } from '../../src/app/app.ts'
import type { Distribution, Project, Question, State } from '../../src/core/types.ts'
import { CostCapError, UsageError } from '../../src/errors.ts'
import type { Store } from '../../src/ports/store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { project, spec } from '../helpers/specs.ts'

const live = spec('name: spam\nstate: [message]\nquestions:\n  is_spam:\n    ask: Spam?\n    type: yes_no\n')
const lang = spec(
  'state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n',
  '/cand/lang.judge.yaml',
)
const candidate = spec(
  'name: spam\nstate: [message, lang.lang]\nquestions:\n  is_spam:\n    ask: Is it spam, in its language?\n    type: yes_no\n',
  '/cand/spam.judge.yaml',
)
const candidateFile: Project = { path: candidate.file, dir: '/cand', specs: [lang, candidate], selected: [candidate] }
const MESSAGES = ['WIN a prize', 'hello', 'gagnez un prix']

// The live wording calls spam only what says WIN; the candidate's catches the French prize too.
function answer(q: Question, s: State): Distribution {
  const yes = q.ask === 'Spam?' ? /WIN/.test(s.message) : /WIN|prix/.test(s.message)
  return q.type === 'yes_no' ? { yes: yes ? 0.9 : 0.1, no: yes ? 0.1 : 0.9 } : { en: 0.2, fr: 0.8 }
}

/** A store holding the live judgment's answers to the messages, each kept for replay. */
async function kept(d: DepsWith<Store>, messages = MESSAGES): Promise<void> {
  for (const message of messages)
    await judgeRequest(app(d), { project: project(live), row: { message }, cap: 1, log: true })
}

const input = (more: Partial<ReplayInput> = {}): ReplayInput => ({
  candidate: candidateFile,
  live: project(live),
  cap: 1,
  concurrency: 2,
  ...more,
})

t.test('the candidate is judged on every kept row and compared with the live labels', async (t) => {
  const engine = createFakeEngine({ answer })
  const d = deps(engine)
  await kept(d)
  const report = await replayKept(app(d), input())
  t.match(report, {
    live: { judgment: 'spam', spec_hash: live.hash },
    candidate: { judgment: 'spam', spec_hash: candidate.hash },
    kept: 3,
    replayed: 3,
  })
  t.match(report.questions.is_spam, {
    rows: 3,
    agree: 2,
    changed: 1,
    live_mix: { yes: 0.333333333 },
    candidate_mix: { yes: 0.666666667 },
  })
  t.same(
    report.questions.is_spam.sample.map((r) => [r.state.message, r.live, r.candidate]),
    [['gagnez un prix', 'no', 'yes']],
  )
  t.match(report.totals, { asked: 6, requests: 6 }, 'the totals count the dependency asked too')
})

t.test("only the candidate gets a run: its dependency was judged on another judgment's rows", async (t) => {
  const d = deps(createFakeEngine({ answer }))
  await kept(d)
  const report = await replayKept(app(d), input())
  t.match(report.run, { judgment: 'spam', spec_hash: candidate.hash, rows: 3, asked: 3, status: 'complete' })
  t.same(d.store.listRuns(['spam'], 50), [report.run])
  t.same(d.store.listRuns(['lang'], 50), [], 'no run of lang')
})

t.test('nothing kept: nothing judged, no run, and an empty report', async (t) => {
  const engine = createFakeEngine({ answer })
  const d = deps(engine)
  const report = await replayKept(app(d), input())
  t.match(report, { kept: 0, replayed: 0, run: null, totals: { asked: 0, cost: 0 } })
  t.equal(engine.calls.length, 0)
  t.same(d.store.listRuns(['spam', 'lang'], 50), [])
})

t.test('above the cap nothing is asked and no run is recorded', async (t) => {
  const engine = createFakeEngine({ answer })
  const d = deps(engine)
  await kept(d)
  const asked = engine.calls.length
  await t.rejects(replayKept(app(d), input({ cap: 0 })), CostCapError)
  t.equal(engine.calls.length, asked)
  t.same(d.store.listRuns(['spam'], 50), [])
})

t.test("a candidate folder without the live judgment's namesake is a usage error naming what it holds", async (t) => {
  const other = spec(
    'name: other\nstate: [message]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n',
    '/cand/other.judge.yaml',
  )
  const folder: Project = { path: '/cand', dir: '/cand', specs: [lang, other], selected: [lang, other] }
  await t.rejects(
    replayKept(app(deps(null)), input({ candidate: folder })),
    new UsageError('the candidate folder /cand holds no judgment named spam (it holds lang, other)'),
  )
})
