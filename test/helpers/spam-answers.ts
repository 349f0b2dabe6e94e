import { stateHash } from '../../src/core/judge/state.ts'
import { verdictKey, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Question } from '../../src/core/types.ts'
import type { Store } from '../../src/ports/store.ts'

/** The state hash of a message. */
export const hashOf = (message: string) => stateHash({ message })

/** Stores an is_spam answer of p(yes) for the message, under model `m`. */
export function putSpam(store: Store, question: Question, message: string, yes: number): void {
  const no = Math.round((1 - yes) * 100) / 100
  store.putAnswers(
    [
      {
        model: 'm',
        fingerprint: question.fingerprint,
        stateHash: hashOf(message),
        judgment: 'spam',
        question: question.name,
        distribution: { yes, no },
        label: yes >= no ? 'yes' : 'no',
        p: Math.max(yes, no),
        margin: Math.round(Math.abs(yes - no) * 100) / 100,
        askedAt: '2026-01-01T00:00:00.000',
      },
    ],
    hashOf(message),
    { message },
  )
}

/** A verdict on a message's is_spam row saving `labels`, keyed as the reviews file reads it. */
export function spamVerdict(
  message: string,
  verdict: VerdictRecord['verdict'],
  labels: string[],
): [string, VerdictRecord] {
  return [
    verdictKey('spam', 'is_spam', hashOf(message)),
    {
      reviewed_at: '2026-01-01T00:00:00.000',
      reviewer: 'ann',
      judgment: 'spam',
      question: 'is_spam',
      state_hash: hashOf(message),
      kind: 'spot_check',
      verdict,
      labels,
      model_label: 'yes',
      key_label: null,
      state: { message },
      stratum: null,
      rank: null,
    },
  ]
}

/** A reviewer's label for an unsure is_spam row of a message, with its values, stratum and rank, as the review page writes it. */
export function unsureVerdict(message: string, more: Partial<VerdictRecord> = {}): VerdictRecord {
  return {
    reviewed_at: '2026-01-01T00:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: hashOf(message),
    kind: 'unsure',
    verdict: 'labeled',
    labels: ['yes'],
    model_label: 'no',
    key_label: null,
    state: { message },
    stratum: 'unsure',
    rank: 1,
    ...more,
  }
}
