import { verdictChoices, labelUnderCheck, type Kind } from '../../src/core/review/verdicts.ts'
import type { Question } from '../../src/core/types.ts'
import type { ReviewCard, ReviewData } from '../../src/http/page-data/review-data.ts'
import { spec } from './specs.ts'

const judgment = spec()

/** A card of the spam judgment: the model's label at 70%, the key's label (or none). */
export function reviewCard(
  kind: Kind,
  question: Question,
  state: Record<string, string>,
  model: string,
  key: string | null,
): ReviewCard {
  const others = question.labels.filter((label) => label !== model)
  const top = [{ label: model, p: 0.7 }, ...others.map((label) => ({ label, p: 0.3 / others.length }))]
  return {
    question: question.name,
    state_hash: `${kind.slice(0, 4)}0123456789ab`,
    kind,
    stratum: 'confident',
    rank: 1,
    state,
    model_label: model,
    p: 0.7,
    margin: 0.4,
    top: top.slice(0, 3),
    key_label: key,
    label_under_check: kind === 'disagreement' ? null : labelUnderCheck({ modelLabel: model, keyLabel: key }),
    verdicts: verdictChoices(kind, question, { modelLabel: model, keyLabel: key }),
  }
}

const [isSpam, topic] = judgment.questions

const BY_QUESTION = {
  is_spam: { disagreement: 1, spot_check: 0, split: 0, unsure: 1 },
  topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 0 },
  urgency: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
}

/** A review page's data: three cards (a disagreement, a spot check, an unsure row), on page 1 of 1. */
export function reviewPageData(more: Partial<ReviewData> = {}): ReviewData {
  return {
    path: 'sms/spam.judge.yaml',
    judgment: 'spam',
    judgments: ['spam', 'tone'],
    reviewer: 'ann',
    audit: 5,
    model: 'jev-1.13.0',
    model_answers: 9,
    other_models: [],
    unsure_below: 0.2,
    has_key: true,
    questions: judgment.questions.map((q) => ({
      name: q.name,
      ask: q.ask,
      labels: q.labels,
      descriptions: q.descriptions,
    })),
    filter: { kind: null, question: null, row: null },
    left: { disagreement: 1, spot_check: 1, split: 0, unsure: 1 },
    left_by_question: BY_QUESTION,
    listed_by_question: BY_QUESTION,
    spot_checks_later: { is_spam: 0, topic: 0, urgency: 0 },
    targets: {
      is_spam: { accuracy_target: null, reviews_needed: null },
      topic: { accuracy_target: null, reviews_needed: null },
      urgency: { accuracy_target: null, reviews_needed: null },
    },
    progress: { reviewer: 'ann', day: '2026-03-01', reviewed: 4, all_time: 9, held: 3, left: 3 },
    reviewers: [
      { reviewer: 'ann', today: 4, all_time: 9, held: 3 },
      { reviewer: 'bob', today: 0, all_time: 2, held: 0 },
    ],
    page: { number: 1, pages: 1, size: 25, total: 3, first: 1 },
    saved: null,
    undone: null,
    cards: [
      reviewCard('disagreement', isSpam, { message: 'See you at lunch' }, 'yes', 'no'),
      reviewCard('spot_check', topic, { message: 'Your parcel is on its way', sender: 'post' }, 'service', null),
      reviewCard('unsure', isSpam, { message: '<script>alert(1)</script> & "x"' }, 'no', null),
    ],
    cards_held: 3,
    not_held: null,
    held_by_others: [],
    ...more,
  }
}
