import t from 'tap'
import { queueLeft } from '../../src/app/queue-left.ts'
import type { ReviewSource } from '../../src/app/review-source.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Card, QuestionAnswers } from '../../src/core/review/queue.ts'
import { verdictKey } from '../../src/core/review/verdicts.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

const judgment = spec(SPAM_YAML + 'unsure_below: 0.2\n')
const isSpam = judgment.questions[0]

function answer(message: string, yes: number): StoredAnswer {
  return {
    model: 'm',
    fingerprint: isSpam.fingerprint,
    stateHash: stateHash({ message }),
    judgment: 'spam',
    question: 'is_spam',
    distribution: { yes, no: 1 - yes },
    label: yes >= 0.5 ? 'yes' : 'no',
    p: Math.max(yes, 1 - yes),
    margin: Math.abs(2 * yes - 1),
    askedAt: 'x',
  }
}

t.test(
  'disagreements and spot checks are counted off the queue; unsure rows in the store, less those offered before or reviewed',
  async (t) => {
    const store = createMemoryStore()
    const answers = Array.from({ length: 10 }, (_, i) => answer(`m${i}`, i < 6 ? 0.55 : 0.9))
    for (const a of answers) store.putAnswers([a], a.stateHash, { message: a.stateHash })
    const key = new Map([
      [
        answers[0].stateHash,
        { stateHash: answers[0].stateHash, state: { message: 'm0' }, labels: { is_spam: 'no' }, where: 'k' },
      ],
    ])
    const reviewed = answers[1]
    const verdicts = new Map([
      [
        verdictKey('spam', 'is_spam', reviewed.stateHash),
        {
          reviewed_at: 'x',
          reviewer: 'ann',
          judgment: 'spam',
          question: 'is_spam',
          state_hash: reviewed.stateHash,
          kind: 'unsure' as const,
          verdict: 'confirmed' as const,
          labels: ['yes'],
          model_label: 'yes',
          key_label: null,
          state: { message: 'm1' },
          stratum: 'unsure' as const,
          rank: 1,
        },
      ],
    ])
    const source: ReviewSource = { store, model: 'm', spec: judgment, key, verdicts }
    const qa: QuestionAnswers = {
      question: isSpam,
      keyed: [answers[0]],
      strata: { unsure: { rows: [] }, confident: { rows: [] } },
    }
    const card = (kind: Card['kind']) => ({ question: 'is_spam', kind }) as Card
    const left = queueLeft(source, [qa], [card('disagreement'), card('spot_check'), card('spot_check'), card('unsure')])
    t.same(
      left,
      { is_spam: { disagreement: 1, spot_check: 2, split: 0, unsure: 4 } },
      '6 unsure answers, one a disagreement and one reviewed',
    )
  },
)
