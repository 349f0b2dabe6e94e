import t from 'tap'
import type { Test } from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import type { Engine, EngineRequest } from '../../src/ports/engine.ts'
import { EngineError } from '../../src/errors.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { smsMessages } from '../helpers/sms.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

const [first, second] = smsMessages()
const CANDIDATE_YAML = SPAM_YAML.replace('name: spam', 'name: spam_v2').replace(
  'ask: Is this message',
  'ask: CANDIDATE. Is this message',
)
const TOKEN = 'server-token-for-tests'
const TONE_YAML = 'state: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'
const isCandidate = (request: EngineRequest) => request.questions.some((q) => q.ask.startsWith('CANDIDATE'))

/** An engine that answers the live spec at once and holds or fails the candidate's requests. */
function shadowEngine(mode: 'hold' | 'fail') {
  const base = createFakeEngine()
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const candidateCalls: EngineRequest[] = []
  const engine: Engine = {
    defaultModel: base.defaultModel,
    async ask(request, signal) {
      if (!isCandidate(request)) return base.ask(request, signal)
      candidateCalls.push(request)
      if (mode === 'fail') throw new EngineError(`engine answered 400: bad (key ${TOKEN})`, 400)
      await released
      return base.ask(request, signal)
    },
  }
  return { engine, release, candidateCalls }
}

async function setup(t: Test, mode: 'hold' | 'fail', env: Record<string, string> = {}) {
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    'spam-v2.judge.yaml': CANDIDATE_YAML,
    'notes.txt': 'hello',
    other: { 'tone.judge.yaml': TONE_YAML },
    pair: { 'tone.judge.yaml': TONE_YAML, 'tone2.judge.yaml': TONE_YAML },
  })
  const shadow = shadowEngine(mode)
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: TOKEN, ...env }, { engine: shadow.engine })
  const auth = { authorization: `Bearer ${TOKEN}` }
  const judge = (body: object) => server.post('/v1/judge', body, auth)
  const pairs = () => {
    const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
    try {
      return store.shadowPairs('spam')
    } finally {
      store.close()
    }
  }
  return { dir, server, judge, pairs, ...shadow }
}

t.test('the response comes before a slow shadow finishes; the pairs are recorded once it does', async (t) => {
  const { server, judge, pairs, release, candidateCalls } = await setup(t, 'hold')
  const res = await judge({ path: 'spam.judge.yaml', row: { message: first.message }, shadow: 'spam-v2.judge.yaml' })
  t.equal(res.status, 200, 'answered while the shadow is still waiting on the engine')
  t.same(Object.keys(res.body).sort(), ['is_spam', 'topic', 'urgency'])
  t.equal(await server.running.handler.idle(50), false, 'the shadow is still in flight')
  t.equal(candidateCalls.length, 1)
  t.same(pairs(), [], 'nothing recorded yet')
  release()
  t.equal(await server.running.handler.idle(5000), true)
  const recorded = pairs()
  t.same(recorded.map((p) => p.question).sort(), ['is_spam', 'topic', 'urgency'])
  t.match(recorded[0], {
    liveJudgment: 'spam',
    candidateJudgment: 'spam_v2',
    candidateHash: /^[0-9a-f]+$/,
    stateHash: /^[0-9a-f]{16}$/,
  })
  const topic = recorded.find((p) => p.question === 'topic')!
  t.equal(topic.liveLabel, res.body.topic.label)
  t.equal(topic.candidateLabel, res.body.topic.label, 'an unchanged question gives the same (cached) label')
  t.same(
    server.logs.filter((l) => l.startsWith('shadow')),
    [],
  )
  const page = await server.get(`/runs?path=spam.judge.yaml&token=${TOKEN}`)
  t.match(page.text, /<h4>Shadow candidates<\/h4>/, 'the runs page reports the candidate')
  t.match(page.text, /<td><code>spam_v2<\/code><\/td>/)
})

t.test('a failing shadow leaves the response and the server unharmed and logs one line without secrets', async (t) => {
  const { server, judge, pairs } = await setup(t, 'fail')
  const res = await judge({ path: 'spam.judge.yaml', row: { message: first.message }, shadow: 'spam-v2.judge.yaml' })
  t.equal(res.status, 200)
  t.equal(await server.running.handler.idle(5000), true)
  const lines = server.logs.filter((l) => l.startsWith('shadow'))
  t.equal(lines.length, 1)
  t.match(lines[0], /^shadow spam_v2 of spam failed: engine answered 400: bad \(key \[redacted\]\)$/)
  t.notMatch(lines[0], TOKEN)
  t.same(pairs(), [])
  const next = await judge({ path: 'spam.judge.yaml', row: { message: second.message } })
  t.equal(next.status, 200, 'the server carries on')
})

t.test('a shadow runs under the same cost cap, and its refusal is only logged', async (t) => {
  const { dir, judge: judgeOpen } = await setup(t, 'hold')
  await judgeOpen({ path: 'spam.judge.yaml', row: { message: first.message } })
  const capped = await startJudgeServer(t, dir, { JUDGE_SERVER_MAX_COST: '0.000001' }, { engine: createFakeEngine() })
  const res = await capped.post('/v1/judge', {
    path: 'spam.judge.yaml',
    row: { message: first.message },
    shadow: 'spam-v2.judge.yaml',
  })
  t.equal(res.status, 200, 'the live row is stored, so it is answered under any cap')
  await capped.running.handler.idle(5000)
  t.match(capped.logs, [
    /^shadow spam_v2 of spam failed: judgment spam_v2: asking 1 answer in 1 request .*nothing was asked$/,
  ])
})

t.test("a bad shadow path is the caller's error, answered before anything is asked", async (t) => {
  const { judge, candidateCalls } = await setup(t, 'hold')
  const row = { message: first.message }
  const cases: [unknown, number, RegExp][] = [
    ['../elsewhere', 403, /^shadow must not contain a \.\. segment/],
    ['/etc', 403, /^shadow must be relative/],
    ['missing.judge.yaml', 404, /^shadow missing\.judge\.yaml does not exist/],
    ['notes.txt', 422, /^shadow: notes\.txt is not a spec file/],
    [12, 400, /^shadow must be a string/],
  ]
  for (const [shadow, status, error] of cases) {
    const res = await judge({ path: 'spam.judge.yaml', row, shadow })
    t.equal(res.status, status, String(shadow))
    t.match(res.body, { error }, String(shadow))
  }
  t.equal(candidateCalls.length, 0)
})

t.test('a shadow that shares no question with the live judgment records nothing and says so', async (t) => {
  const { server, judge, pairs } = await setup(t, 'hold')
  const res = await judge({ path: 'spam.judge.yaml', row: { message: first.message }, shadow: 'other' })
  t.equal(res.status, 200)
  await server.running.handler.idle(5000)
  t.same(pairs(), [])
  t.match(server.logs, [/^shadow tone of spam: no question in common; nothing compared$/])
})

t.test('a candidate folder is compared judgment by judgment with the live namesake', async (t) => {
  const { server, judge, pairs, release } = await setup(t, 'hold')
  release()
  const res = await judge({ path: '.', node: 'spam', row: { message: first.message }, shadow: '.' })
  t.equal(res.status, 200)
  await server.running.handler.idle(5000)
  t.same(
    pairs().map((p) => p.candidateJudgment),
    ['spam', 'spam', 'spam'],
    'spam against itself; spam_v2 has no live namesake',
  )
  t.same(server.logs, [])
})

t.test('a candidate folder without a live namesake judges nothing and says so', async (t) => {
  const { server, judge, candidateCalls } = await setup(t, 'hold')
  const res = await judge({ path: 'spam.judge.yaml', row: { message: first.message }, shadow: 'pair' })
  t.equal(res.status, 200)
  await server.running.handler.idle(5000)
  t.equal(candidateCalls.length, 0)
  t.match(server.logs, [/^shadow tone, tone2 of spam: no candidate judgment has a live namesake; nothing judged$/])
})
