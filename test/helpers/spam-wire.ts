import type { WireRequest } from '../../src/adapters/system-one/system-one-wire.ts'

/** The shares of a three-label answer: its first label's, then the other two's. */
export type Shares = readonly [number, number, number]

/** How sure the model is of each question of SPAM_YAML beyond is_spam: topic's and urgency's shares, urgency's score. */
export interface SpamSureness {
  /** personal, promotion, service. */
  readonly topic?: Shares
  /** low, medium, high. */
  readonly urgency?: Shares
  readonly score?: number
}

/**
 * System One's answer to the questions of SPAM_YAML a request asks, as a local engine gives it:
 * is_spam with p(yes) `yes`, topic personal and urgency low, at the shares given (by default
 * 0.8 personal, 0.9 low at a score of 0.1).
 */
export function spamWireAnswer(body: WireRequest, yes: number, sure: SpamSureness = {}): Record<string, unknown> {
  const [personal, promotion, service] = sure.topic ?? [0.8, 0.1, 0.1]
  const [low, medium, high] = sure.urgency ?? [0.9, 0.05, 0.05]
  return {
    ...(body.questions.is_spam ? { is_spam: { type: 'noul', noul: yes } } : {}),
    ...(body.questions.topic
      ? { topic: { type: 'choice', choice: 'personal', probabilities: { personal, promotion, service } } }
      : {}),
    ...(body.questions.urgency
      ? {
          urgency: {
            type: 'score',
            score: sure.score ?? 0.1,
            legend: { 0: 'low', 1: 'medium', 2: 'high' },
            probabilities: { 0: low, 1: medium, 2: high },
          },
        }
      : {}),
  }
}
