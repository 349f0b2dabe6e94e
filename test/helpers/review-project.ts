import type { Test } from 'tap'
import { stringify } from 'csv-stringify/sync'
import type { WireRequest } from '../../src/adapters/system-one/system-one-wire.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { cli } from './cli.ts'
import { SPAM_YAML } from './specs.ts'
import { startSystemOneServer, type SystemOneServer } from './system-one-server.ts'
import { spamWireAnswer } from './spam-wire.ts'

/** A row of the review project: its message, the model's p(spam), and the key's is_spam label ('' for none). */
export interface ReviewRow {
  readonly message: string
  readonly yes: number
  readonly key: string
}

/** A message holding markup, quotes and an ampersand, which every page must escape. */
export const EVIL_MESSAGE = '<script>alert("x")</script> & \'quoted\''

/**
 * The rows: the first agrees with the key, the second disagrees with it, the third (the one holding
 * markup) is the model's only unsure answer, and forty plain rows fill the spot-check sample.
 */
export const REVIEW_ROWS: readonly ReviewRow[] = [
  { message: 'WINNER! Claim your prize now, call 09061701461', yes: 0.95, key: 'yes' },
  { message: 'See you at lunch tomorrow?', yes: 0.8, key: 'no' },
  { message: EVIL_MESSAGE, yes: 0.55, key: '' },
  ...Array.from({ length: 40 }, (_, i) => ({
    message: `plain message number ${i + 1}`,
    yes: 0.1,
    key: i < 2 ? 'no' : '',
  })),
]

/** The spec of the review project: the spam judgment with a key and unsure_below. */
// `allocation: fixed` pins the seed's order of exactly `audit` spot checks, which these tests count;
// allocation has tests of its own (test/core/allocation, test/app/review-allocation.ts).
export const REVIEW_YAML = SPAM_YAML + 'key: spam.key.csv\ndata: messages.csv\nunsure_below: 0.2\nallocation: fixed\n'

/** The state hash of a message of the review project. */
export function hashOf(message: string): string {
  return stateHash({ message })
}

// Topic and urgency answers are sure, so that the only unsure row is the one chosen above.
function answer(body: WireRequest): Record<string, unknown> {
  return spamWireAnswer(body, REVIEW_ROWS.find((r) => r.message === body.state.message)?.yes ?? 0.1)
}

/** A project folder whose store holds answers to every row, put there by `judge run` against a local engine. */
export interface ReviewProject {
  readonly dir: string
  /** The environment that reaches the local engine, for `judge test`. */
  readonly env: Record<string, string>
  /** The local engine, with the requests it received. */
  readonly engine: SystemOneServer
}

/** Writes the review project into a test folder and runs `judge run` on it; the engine stops at teardown. */
export async function reviewProject(t: Test): Promise<ReviewProject> {
  return judgedProject(
    t,
    {
      'spam.judge.yaml': REVIEW_YAML,
      'spam.key.csv': stringify([
        ['message', 'is_spam'],
        ...REVIEW_ROWS.filter((r) => r.key !== '').map((r) => [r.message, r.key]),
      ]),
      'messages.csv': stringify([['message'], ...REVIEW_ROWS.map((r) => [r.message])]),
    },
    answer,
  )
}

/**
 * Writes `files` (a spam.judge.yaml naming its data) into a test folder and runs `judge run` on it
 * against a local engine answering with `answer`, which stops at teardown.
 */
export async function judgedProject(
  t: Test,
  files: Record<string, string>,
  answer: (body: WireRequest) => Record<string, unknown>,
): Promise<ReviewProject> {
  const dir = t.testdir(files)
  const engine = await startSystemOneServer({ expectKey: 'test-key', answer })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'test-key', ENGINE_RPM: '0' }
  const run = await cli(['run', 'spam.judge.yaml'], env, dir)
  if (run.code !== 0) throw new Error(`judge run failed: ${run.stderr}`)
  return { dir, env, engine }
}
