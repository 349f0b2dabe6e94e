import { join } from 'node:path'
import type { Test } from 'tap'
import type { WireRequest } from '../../src/adapters/system-one/system-one-wire.ts'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { readConfig } from '../../src/config.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { createRuntime } from '../../src/runtime.ts'
import { cli } from './cli.ts'
import { startSystemOneServer } from './system-one-server.ts'

// A live spec and a candidate that words is_spam otherwise, over kept rows: what `judge replay`
// and `judge compare` are tested on.

export const KEY = 'test-key'
export const LIVE_ASK = 'Is this message unsolicited advertising or a scam?'
export const CANDIDATE_ASK = 'Is this message spam? Count prize draws as spam.'

export const spamSpec = (name: string, ask: string) => `name: ${name}
state: [message]
questions:
  is_spam:
    ask: ${ask}
    type: yes_no
  topic:
    ask: What is the message mainly about?
    labels: [personal, promotion, service]
`

// By hand, over messages 0-9: the live wording says yes for 0-3, the candidate's for 0-2, 4 and 5.
// They agree on 0, 1, 2 (yes) and 6-9 (no): 7 of 10. Live mix yes 0.4, no 0.6; candidate mix yes
// 0.5, no 0.5; total variation distance (0.1 + 0.1) / 2 = 0.1. Topic is worded the same in both.
export const YES: Readonly<Record<string, readonly number[]>> = {
  [LIVE_ASK]: [0, 1, 2, 3],
  [CANDIDATE_ASK]: [0, 1, 2, 4, 5],
}
export const message = (i: number) => `msg ${i}`
const indexOf = (body: WireRequest) => Number(/(\d+)$/.exec(body.state.message)![1])

/** The engine's answers, scripted per wording and message. */
export function scripted(body: WireRequest): Record<string, unknown> {
  const answers: Record<string, unknown> = {}
  for (const [name, q] of Object.entries(body.questions)) {
    if (q.type === 'noul')
      answers[name] = { type: 'noul', noul: YES[q.instructions]?.includes(indexOf(body)) ? 0.9 : 0.1 }
    else
      answers[name] = {
        type: 'choice',
        choice: 'personal',
        probabilities: { personal: 0.8, promotion: 0.1, service: 0.1 },
      }
  }
  return answers
}

/**
 * A live spec, a candidate spec file in candidates/, and one store: eleven rows kept for the live
 * judgment, the first ten judged live by `judge run`, and the first four already answered by the
 * candidate, as shadow requests would have left them.
 */
export async function setup(
  t: Test,
  options: { keep?: number; shadowed?: number; files?: Record<string, string> } = {},
) {
  const dir = t.testdir({
    'spam.judge.yaml': spamSpec('spam', LIVE_ASK),
    'live.csv': ['message', ...Array.from({ length: 10 }, (_, i) => message(i))].join('\n') + '\n',
    candidates: { 'spam-v2.judge.yaml': spamSpec('spam-v2', CANDIDATE_ASK) },
    ...options.files,
  })
  const engine = await startSystemOneServer({ expectKey: KEY, answer: scripted })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' }
  const runtime = createRuntime(readConfig(env, dir))
  try {
    const store = runtime.depsFor(loadProject(join(dir, 'spam.judge.yaml'))).store
    for (let i = 0; i < (options.keep ?? 11); i++) {
      const state = { message: message(i) }
      store.keepRow('spam', stateHash(state), state, `2026-11-22T10:00:${String(i).padStart(2, '0')}.000`)
    }
    t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'live.csv'], env, dir)).code, 0)
    const candidate = loadProject(join(dir, 'candidates/spam-v2.judge.yaml'))
    for (let i = 0; i < (options.shadowed ?? 4); i++)
      await judgeRequest(runtime, { project: candidate, row: { message: message(i) }, cap: 0.01 })
  } finally {
    runtime.close()
  }
  return { dir, engine, env, before: engine.requests.length }
}
