import type { QuestionSample } from '../review/sample-design.ts'
import { countingVerdicts, type Reviews } from '../review/double-review.ts'
import type { AnswerKey } from '../review/verdicts.ts'
import { disagreementsOf, type Disagreement } from './disagreements.ts'
import { keyError, type KeyError } from './key-error.ts'
import { modelAgreement, type ModelAgreement } from './model-agreement.ts'
import { peopleAgreement, reviewedPairs, type PeopleAgreement } from './people.ts'
import { raterFigures, ratedUnits, type RaterFigures } from './people-raters.ts'
import { reviewerAgreement, type ReviewerAgreement } from './reviewers.ts'

/** How each interval is computed, as reports name it. */
export const AGREEMENT_METHOD = {
  model:
    'design-weighted; κ: delta method, stratified, tables pulled in by z²/4 each way, Wald; AC1, weighted κ: ' +
    'stratified jackknife, Wald; precision, recall, F1: linearized ratio, stratified Wilson',
  people:
    'κ: Fleiss–Cohen–Everitt large-sample variance, table pulled in by z²/4 each way, Wald; AC1, α: ' +
    'jackknife over rows, Wald; reviewers: Wilson',
  key_error: 'Wilson',
} as const

/** A question's `agreement`: the judge against people, people against each other, and the key against people. */
export interface QuestionAgreement extends ModelAgreement {
  readonly method: typeof AGREEMENT_METHOD
  readonly reviewers: Readonly<Record<string, ReviewerAgreement>>
  readonly people: PeopleAgreement & RaterFigures
  readonly key_error: KeyError | null
  /** Standing verdicts that left the model's label out, newest first, with their notes (disagreements.ts). */
  readonly disagreements: readonly Disagreement[]
  /** How many there are in all, the list holding at most DISAGREEMENTS_SHOWN. */
  readonly disagreements_total: number
}

/** What a question's agreement is read from: its sample design, every standing verdict per row and the key. */
export interface AgreementInput {
  readonly judgment: string
  readonly sampleDesign: QuestionSample
  /** Every standing verdict of each row (Files.reviews). */
  readonly reviews: Reviews
  readonly key: AnswerKey
}

/** The agreement figures of one question (docs/review.md, Agreement), as plain data ready to serve. */
export function questionAgreement(input: AgreementInput): QuestionAgreement {
  const question = input.sampleDesign.question.name
  const pairs = reviewedPairs(input.reviews, input.judgment, question)
  const disagreed = disagreementsOf(input.reviews, input.judgment, question)
  return {
    ...modelAgreement(input.sampleDesign),
    method: AGREEMENT_METHOD,
    reviewers: reviewerAgreement(pairs),
    people: {
      ...peopleAgreement(pairs),
      ...raterFigures(ratedUnits(input.reviews, input.judgment, question), input.sampleDesign.question),
    },
    key_error: keyError(input.judgment, question, input.key, countingVerdicts(input.reviews)),
    disagreements: disagreed.list,
    disagreements_total: disagreed.total,
  }
}
