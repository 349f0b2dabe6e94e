import type { TargetFigures } from '../../core/allocation/reviews-needed.ts'
import { answerModels, settingFor, type AnswerModels } from '../../app/answer-models.ts'
import { reviewQueue, type ReviewQueue } from '../../app/review.ts'
import { timestamp } from '../../core/judge/deps.ts'
import { dayOf, reviewedOn, reviewerProgress, type ReviewerProgress } from '../../core/review/progress.ts'
import { PAGE_SIZE, type Card } from '../../core/review/queue.ts'
import { leftByKind, viewQueue, type QueueFilter, type QueueLeft } from '../../core/review/queue-view.ts'
import type { Stratum } from '../../core/review/strata.ts'
import {
  labelUnderCheck,
  verdictKey,
  verdictText,
  type Kind,
  type VerdictChoice,
  type VerdictRecord,
} from '../../core/review/verdicts.ts'
import type { State } from '../../core/types.ts'
import type { HttpRequest, ServerContext } from '../context.ts'
import { param } from '../params.ts'
import { reviewTarget, rowRefOf, signer, type ReviewTarget, type RowRef } from './review-params.ts'
import { cookieReviewer } from './reviewer-cookie.ts'
import { fromPage } from './page-request.ts'
import { heldBy, heldByOthers, holdPage, SPARE_PAGES, type HeldByOther } from './review-holds.ts'
import { listedRows, spotChecksLater } from './review-listed.ts'

/** One row offered for review, as GET /v1/review gives it and the page shows it. */
export interface ReviewCard {
  readonly question: string
  readonly state_hash: string
  readonly kind: Kind
  readonly stratum: Stratum
  /** Its place in its stratum's rank order, from 1; null when not known. */
  readonly rank: number | null
  readonly state: State
  readonly model_label: string
  readonly p: number
  readonly margin: number
  /** The model's three most probable labels. */
  readonly top: readonly { readonly label: string; readonly p: number }[]
  readonly key_label: string | null
  /** The label a spot check or unsure row asks to confirm; null for a disagreement. */
  readonly label_under_check: string | null
  readonly verdicts: readonly VerdictChoice[]
}

/** A verdict on the page's banner: the one just saved, or the one standing again after an undo. */
export interface ShownVerdict {
  readonly question: string
  readonly state_hash: string
  readonly verdict: VerdictRecord['verdict']
  readonly labels: readonly string[]
  /** The verdict in the words of its button: `answer key is right`, `it is promotion`. */
  readonly text: string
  readonly reviewed_at: string
  readonly reviewer: string
}

/** What GET /review shows and GET /v1/review answers: one page of one judgment's queue. */
export interface ReviewData {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  readonly judgment: string
  /** Every judgment the path selects, for moving between their queues. */
  readonly judgments: readonly string[]
  /** The reviewer named in the request, or null. */
  readonly reviewer: string | null
  readonly audit: number
  /** The model whose answers are offered, or null before the store exists. */
  readonly model: string | null
  /** Answers of `model` to the questions as worded now, which the queue is built from; 0 before the store exists. */
  readonly model_answers: number
  /** Other models whose answers to the same questions the store holds, most first, with the setting that reads them. */
  readonly other_models: readonly { readonly model: string; readonly answers: number; readonly setting: string }[]
  readonly unsure_below: number
  /** Whether the judgment has an answer key (and so can have disagreements). */
  readonly has_key: boolean
  /** Each question with its labels and their descriptions (the guidelines: null where the spec gives none). */
  readonly questions: readonly {
    readonly name: string
    readonly ask: string
    readonly labels: readonly string[]
    readonly descriptions: readonly (string | null)[]
  }[]
  readonly filter: QueueFilter
  /** Rows of each kind left in the whole queue, and per question, the spot checks still to come included. */
  readonly left: Readonly<Record<Kind, number>>
  readonly left_by_question: QueueLeft
  /** Per question, rows of each kind the page lists now (a filter's count): none to come, none held by another. */
  readonly listed_by_question: QueueLeft
  /** Spot checks to come per question, which no filter lists yet: the allocation offers them as verdicts come in. */
  readonly spot_checks_later: Readonly<Record<string, number>>
  /** Rows the signer settled today (UTC) and in all, rows held for them now, and rows left in the whole queue. */
  readonly progress: {
    readonly reviewer: string
    readonly day: string
    readonly reviewed: number
    readonly all_time: number
    readonly held: number
    readonly left: number
  }
  /** Every reviewer of the judgment: today's and all-time verdicts standing, rows held now. */
  readonly reviewers: readonly ReviewerProgress[]
  /**
   * Per question, the spec's accuracy target and the reviews per stratum it still takes (docs/review.md, The reviews it
   * takes).
   */
  readonly targets: Readonly<Record<string, TargetFigures>>
  /** The page shown: its number, the pages and rows the filter shows, and the place of its first row. */
  readonly page: {
    readonly number: number
    readonly pages: number
    readonly size: number
    readonly total: number
    readonly first: number
  }
  /** The verdict named by `saved`, while it stands; null otherwise. */
  readonly saved: ShownVerdict | null
  /** The row named by `undone`, and the verdict standing on it now (an earlier one), or null when none. */
  readonly undone: {
    readonly question: string
    readonly state_hash: string
    readonly standing: ShownVerdict | null
  } | null
  readonly cards: readonly ReviewCard[]
  /** How many of the cards, the first ones, are held for the reviewer (docs/review.md, Leases). */
  readonly cards_held: number
  /**
   * Why cards shown are not held for the reviewer, or null when all are: `unnamed` (no name), `other_site` (the request
   * did not come from the page: docs/security.md), `bounded` (holds leave a page of the queue free).
   */
  readonly not_held: 'unnamed' | 'other_site' | 'bounded' | null
  /** Rows the filter shows that other reviewers hold now: who, how many, until when. */
  readonly held_by_others: readonly HeldByOther[]
}

/** What the page's banner refers to: the row just saved or undone. */
export interface Banner {
  readonly saved: RowRef | null
  readonly undone: RowRef | null
}

/**
 * The data of a review page: the queue read for `target`, filtered and paged; the signer and `now` for the progress,
 * the viewer (null without a name) for the holds of others. Its cards are not held.
 */
export function reviewData(
  target: ReviewTarget,
  queue: ReviewQueue,
  banner: Banner,
  who: { readonly signer: string; readonly viewer: string | null },
  now: string,
  models?: AnswerModels,
): ReviewData {
  const { signer } = who
  const { spec } = target
  const listed = listedRows(queue, who.viewer)
  const view = viewQueue(queue.offered, listed, target.filter, target.page, PAGE_SIZE)
  const left = leftByKind(queue.left)
  const day = dayOf(now)
  const shown = (ref: RowRef | null) =>
    ref === null ? null : shownVerdict(queue.verdicts.get(verdictKey(spec.name, ref.question, ref.stateHash)))
  return {
    path: target.path,
    judgment: spec.name,
    judgments: target.project.selected.map((s) => s.name),
    reviewer: target.reviewer,
    audit: target.spotChecks,
    model: queue.model ?? null,
    model_answers: models?.answers ?? 0,
    other_models: (models?.others ?? []).map((o) => ({ ...o, setting: settingFor(o.model) })),
    unsure_below: spec.unsureBelow,
    has_key: spec.key !== null,
    questions: spec.questions.map(({ name, ask, labels, descriptions }) => ({ name, ask, labels, descriptions })),
    filter: target.filter,
    left,
    left_by_question: queue.left,
    listed_by_question: listed,
    spot_checks_later: spotChecksLater(queue, listed, who.viewer),
    ...progressOf(
      queue,
      spec.name,
      signer,
      day,
      left.disagreement + left.spot_check + left.split + left.unsure,
      heldBy(queue.leases ?? []),
    ),
    targets: queue.targets,
    page: { number: view.page, pages: view.pages, size: PAGE_SIZE, total: view.total, first: view.first },
    saved: shown(banner.saved),
    undone: banner.undone && {
      question: banner.undone.question,
      state_hash: banner.undone.stateHash,
      standing: shown(banner.undone),
    },
    cards: view.cards.map(reviewCard),
    cards_held: 0,
    not_held: who.viewer === null ? 'unnamed' : 'other_site',
    held_by_others: heldByOthers(queue.leases ?? [], who.viewer, target.filter),
  }
}

/** The progress of the page's signer and of every reviewer of the judgment. */
function progressOf(
  queue: ReviewQueue,
  judgment: string,
  signer: string,
  day: string,
  left: number,
  held: ReadonlyMap<string, number>,
): Pick<ReviewData, 'progress' | 'reviewers'> {
  const reviewers = reviewerProgress(queue.reviews, judgment, day, held)
  const mine = reviewers.find((r) => r.reviewer === signer)
  return {
    progress: {
      reviewer: signer,
      day,
      reviewed: reviewedOn(queue.reviews, judgment, signer, day),
      all_time: mine?.all_time ?? 0,
      held: mine?.held ?? 0,
      left,
    },
    reviewers,
  }
}

function reviewCard(card: Card): ReviewCard {
  return {
    question: card.question,
    state_hash: card.stateHash,
    kind: card.kind,
    stratum: card.stratum,
    rank: card.rank,
    state: card.state,
    model_label: card.modelLabel,
    p: card.p,
    margin: card.margin,
    top: card.top,
    key_label: card.keyLabel,
    label_under_check: card.kind === 'disagreement' ? null : labelUnderCheck(card),
    verdicts: card.verdicts,
  }
}

function shownVerdict(record: VerdictRecord | undefined): ShownVerdict | null {
  if (!record) return null
  return {
    question: record.question,
    state_hash: record.state_hash,
    verdict: record.verdict,
    labels: record.labels,
    text: verdictText(record),
    reviewed_at: record.reviewed_at,
    reviewer: record.reviewer,
  }
}

/**
 * The data of a review page from a request's query: the queue, filtered and paged, with its banner
 * and progress. A named reviewer (the X-Reviewer header, the `reviewer` parameter, else the page's
 * cookie) at the page (page-request.ts) holds the cards shown, as many as the bound allows,
 * releasing what they held before; a card another reviewer took in the meantime is left off the
 * page. A view without a name, or a request from elsewhere, holds nothing.
 */
export async function reviewPageData(ctx: ServerContext, request: HttpRequest): Promise<ReviewData> {
  const { query } = request
  const asked = reviewTarget(ctx, query)
  const target = { ...asked, reviewer: asked.reviewer ?? cookieReviewer(request.headers) }
  const banner = { saved: rowRefOf(param(query, 'saved'), 'saved'), undone: rowRefOf(param(query, 'undone'), 'undone') }
  const reviewer = signer(request.headers, target.reviewer)
  const viewer = target.reviewer !== null || typeof request.headers['x-reviewer'] === 'string' ? reviewer : null
  const holding = viewer !== null && fromPage(request.headers)
  // As far as the spot checks offered now go (their count is what a filter lists), and further for a page that holds,
  // for the cards that stand in for those another reviewer takes meanwhile.
  const limit = Math.max(target.page * PAGE_SIZE, target.spotChecks) + (holding ? SPARE_PAGES * PAGE_SIZE : 0)
  const queue = await reviewQueue(ctx.runtime, { ...target, limit, reviewedBy: reviewer, viewer })
  const models = answerModels(ctx.runtime, target.project, target.spec)
  const data = reviewData(target, queue, banner, { signer: reviewer, viewer }, timestamp(ctx.now()), models)
  if (!holding) return data
  const { cards, held, holds } = await holdPage(ctx.runtime, viewer, {
    target,
    queue,
    from: (data.page.number - 1) * PAGE_SIZE,
    size: data.cards.length,
    waiting: data.progress.left,
    seconds: ctx.config.reviewLeaseS,
  })
  return {
    ...data,
    ...progressOf(queue, target.spec.name, reviewer, data.progress.day, data.progress.left, holds),
    cards: cards.map(reviewCard),
    cards_held: held,
    not_held: held < cards.length ? 'bounded' : null,
  }
}
