import { readDistribution } from '../../src/core/judge/answer.ts'
import type { QueueInput, QuestionAnswers } from '../../src/core/review/queue.ts'
import { verdictKey, type KeyRow, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Distribution, Question } from '../../src/core/types.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import { hashOf } from './spam-answers.ts'
import { spec } from './specs.ts'

export { hashOf }

/** The spam judgment the queue's inputs are built for, and its questions. */
export const judgment = spec()
export const isSpam = judgment.questions.find((q) => q.name === 'is_spam')!
export const topic = judgment.questions.find((q) => q.name === 'topic')!

/** A stored answer of `question` to a message, read as the store reads it. */
export function answer(question: Question, message: string, distribution: Distribution): StoredAnswer {
  return {
    model: 'm',
    fingerprint: question.fingerprint,
    stateHash: hashOf(message),
    judgment: 'spam',
    question: question.name,
    distribution,
    ...readDistribution(question, distribution),
    askedAt: '2026-01-01T00:00:00.000',
  }
}
/** An is_spam answer of yes (or no) with probability `p`. */
export const yes = (message: string, p = 0.9) =>
  answer(isSpam, message, { yes: p, no: Math.round((1 - p) * 100) / 100 })
export const no = (message: string, p = 0.9) => answer(isSpam, message, { yes: Math.round((1 - p) * 100) / 100, no: p })

/** An answer key of messages and their labels, in file order from line 2. */
export function keyOf(rows: [string, Record<string, string>][]): Map<string, KeyRow> {
  return new Map(
    rows.map(([message, labels], i) => [
      hashOf(message),
      { stateHash: hashOf(message), state: { message }, labels, where: `key.csv:${i + 2}` },
    ]),
  )
}

/** A spot-check verdict on a message's row of `question`, keyed as the reviews file reads it. */
export function verdictOn(
  question: string,
  message: string,
  verdict: VerdictRecord['verdict'] = 'ambiguous',
): [string, VerdictRecord] {
  const record: VerdictRecord = {
    reviewed_at: '2026-01-01T00:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question,
    state_hash: hashOf(message),
    kind: 'spot_check',
    verdict,
    labels: [],
    model_label: 'no',
    key_label: null,
    state: { message },
    stratum: 'confident',
    rank: 1,
  }
  return [verdictKey('spam', question, hashOf(message)), record]
}

/** The queue's input for these answers: every state known, no key or verdicts, audit 30, 25 cards. */
export function input(answers: QuestionAnswers[], more: Partial<QueueInput> = {}): QueueInput {
  const states = new Map(
    answers
      .flatMap((qa) => [...qa.strata.confident.rows, ...qa.strata.unsure.rows, ...(qa.strata.split?.rows ?? [])])
      .map((a) => [a.stateHash, { message: `state of ${a.stateHash}` }]),
  )
  return { spec: judgment, answers, key: new Map(), verdicts: new Map(), states, spotChecks: 30, limit: 25, ...more }
}

/** A question's answers: the key's, and each stratum's in rank order (the whole stratum). */
export function qa(
  question: Question,
  rows: { keyed?: StoredAnswer[]; sample?: StoredAnswer[]; unsure?: StoredAnswer[]; split?: StoredAnswer[] } = {},
): QuestionAnswers {
  const stratum = (list: StoredAnswer[] = []) => ({ size: list.length, rows: list })
  return {
    question,
    keyed: rows.keyed ?? [],
    strata: {
      confident: stratum(rows.sample),
      unsure: stratum(rows.unsure),
      ...(rows.split ? { split: stratum(rows.split) } : {}),
    },
  }
}
