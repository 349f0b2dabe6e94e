import t from 'tap'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { shadowRow, type ShadowJob } from '../../src/app/shadow.ts'
import type { DepsWith } from '../../src/app/app.ts'
import type { Store } from '../../src/ports/store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { candidateYaml, project, spec } from '../helpers/specs.ts'

const live = spec()
const candidate = spec(candidateYaml(['personal', 'promotion', 'service']), '/cand/spam-v2.judge.yaml')
const tone = spec(
  'name: tone\nstate: [message]\nquestions:\n  friendly:\n    ask: Friendly?\n    type: yes_no\n',
  '/specs/tone.judge.yaml',
)
const row = { message: 'WIN a prize now' }

/** The job of shadowing `candidates` on the row, with the live judgments' results as the caller got them. */
async function job(d: DepsWith<Store>, candidates = [candidate], liveSpecs = [live], cap = 1): Promise<ShadowJob> {
  const { results } = await judgeRequest(app(d), { project: project(...liveSpecs), row, cap: 1 })
  return { live: project(...liveSpecs), results, candidate: project(...candidates), row, cap }
}

t.test('a pair of labels is recorded per shared question in the live store, and nothing is logged', async (t) => {
  const d = deps(createFakeEngine())
  const logs: string[] = []
  const shadow = await job(d)
  await shadowRow(app(d), shadow, (line) => logs.push(line))
  const pairs = d.store.shadowPairs('spam')
  t.same(
    pairs.map((p) => p.question),
    ['is_spam', 'topic'],
    'urgency and tone are asked by one side only',
  )
  t.match(pairs[1], {
    liveJudgment: 'spam',
    candidateJudgment: 'spam-v2',
    candidateHash: candidate.hash,
    stateHash: shadow.results[0].stateHash,
    liveLabel: shadow.results[0].answers.topic.label,
    at: '2026-11-22T10:00:00.000',
  })
  t.same(logs, [])
})

t.test(
  'it never throws: an engine failure is one log line naming both judgments, and nothing is recorded',
  async (t) => {
    const working = deps(createFakeEngine())
    const shadow = await job(working)
    const failing = deps(createFakeEngine({ fail: new Error('engine answered 500:\n  overloaded') }), working.store)
    const logs: string[] = []
    await t.resolves(shadowRow(app(failing), shadow, (line) => logs.push(line)))
    t.same(logs, ['shadow spam-v2 of spam failed: engine answered 500: overloaded'])
    t.same(working.store.shadowPairs('spam'), [])
  },
)

t.test('the candidate runs under the same cap, and a refusal is only logged', async (t) => {
  const d = deps(createFakeEngine())
  const logs: string[] = []
  await shadowRow(app(d), await job(d, [candidate], [live], 0), (line) => logs.push(line))
  t.match(logs, [
    /^shadow spam-v2 of spam failed: judgment spam-v2: asking 3 answers .* above the cap of \$0\.00; nothing was asked$/,
  ])
})

t.test('no candidate with a live namesake: one line, and nothing judged', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  const shadow = await job(d, [candidate], [live, tone])
  const asked = engine.calls.length
  const logs: string[] = []
  await shadowRow(app(d), shadow, (line) => logs.push(line))
  t.same(logs, ['shadow spam-v2 of spam, tone: no candidate judgment has a live namesake; nothing judged'])
  t.equal(engine.calls.length, asked)
})

t.test('no question in common: one line, no pair, and the candidate noted as seen', async (t) => {
  const d = deps(createFakeEngine())
  const logs: string[] = []
  await shadowRow(app(d), await job(d, [tone]), (line) => logs.push(line))
  t.same(logs, ['shadow tone of spam: no question in common; nothing compared'])
  t.same(d.store.shadowPairs('spam'), [])
  t.same(
    d.store.candidateQuestions().map((c) => [c.judgment, c.question, c.fingerprint]),
    tone.questions.map((q) => ['tone', q.name, q.fingerprint]),
  )
})
