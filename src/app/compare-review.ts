import { compareRank, discordantOrder } from '../core/compare/compare.ts'
import { COMPARE_KIND, type ComparisonRecord } from '../core/review/comparison-verdict.ts'
import { sharedQuestions } from '../core/reports/shadow.ts'
import { countingVerdicts } from '../core/review/double-review.ts'
import type { State } from '../core/types.ts'
import { ConflictError, UsageError } from '../errors.ts'
import type { App } from './app.ts'
import { truthOf } from './compare.ts'
import { storedRows, type ReplayInput } from './replay.ts'
import { serialized, written } from './review.ts'

/**
 * A row to review where the live and the candidate spec differ: both labels, in an order that does not say which gave
 * which.
 */
export interface CompareCard {
  readonly question: string
  readonly state_hash: string
  readonly state: State
  /** The two labels given, in a fixed order by a hash of the row, not by spec. */
  readonly shown: readonly [string, string]
  /** Every label of the question: one button each. */
  readonly choices: readonly string[]
}

/** The comparison review of a candidate: the rows to review, in order, and how many are left per question. */
export interface CompareQueue {
  readonly judgment: string
  readonly candidate: string
  readonly cards: readonly CompareCard[]
  readonly left: Readonly<Record<string, number>>
}

/** What the comparison review is made for: the live and candidate projects, the live judgment. */
export type CompareTarget = Pick<ReplayInput, 'live' | 'candidate' | 'judgment'>

/**
 * The rows where the two specs differ and no true label is known yet, in the comparison's review
 * order (compareRank), the questions taken in turn; read from the kept rows whose candidate
 * answers the store holds, asking nothing. The longest known prefix of that order is what the
 * comparison estimates from, so a reviewer working down it grows the sample (docs/shadow.md).
 */
export async function compareQueue(app: App, target: CompareTarget): Promise<CompareQueue> {
  const { pair, rows } = storedRows(app, target)
  const [key, reviews, comparisons] = await Promise.all([
    app.files.key(pair.live),
    app.files.reviews(pair.live),
    app.files.comparisons(pair.live),
  ])
  const verdicts = countingVerdicts(reviews)
  const byHash = new Map(rows.map((r) => [r.stateHash, r]))
  const lists = sharedQuestions(pair).map(({ live }) => {
    const truth = truthOf(pair.live, live.name, key, verdicts, comparisons)
    const compared = rows.flatMap((r) =>
      r.live[live.name] === undefined || r.candidate[live.name] === undefined
        ? []
        : [{ stateHash: r.stateHash, live: r.live[live.name], candidate: r.candidate[live.name] }],
    )
    return discordantOrder(pair.live.name, live.name, compared)
      .filter((r) => !truth.has(r.stateHash))
      .map((r): CompareCard => {
        const shown: [string, string] =
          compareRank(pair.live.name, live.name, r.stateHash) % 2 === 0 ? [r.live, r.candidate] : [r.candidate, r.live]
        return {
          question: live.name,
          state_hash: r.stateHash,
          state: byHash.get(r.stateHash)!.state,
          shown,
          choices: live.labels,
        }
      })
  })
  const cards: CompareCard[] = []
  for (let i = 0; i < Math.max(0, ...lists.map((l) => l.length)); i++)
    for (const list of lists) if (i < list.length) cards.push(list[i])
  const left = Object.fromEntries(sharedQuestions(pair).map(({ live }, i) => [live.name, lists[i].length]))
  return { judgment: pair.live.name, candidate: pair.candidate.name, cards, left }
}

/** A comparison verdict as asked for: the row, the label a reviewer gives it, who and when. */
export interface ComparisonRequest {
  readonly question: string
  readonly stateHash: string
  readonly label: string
  readonly reviewer: string
  /** UTC timestamp without zone offset. */
  readonly reviewedAt: string
}

/**
 * Records a comparison verdict: the row must be offered by the comparison review now (409
 * otherwise) and the label one of the question's (400), checked and appended under the reviews
 * file's lock, as a verdict of the live queue is. It is written with the kind `compare`, so the
 * live queue and its estimate never read it.
 */
export async function recordComparison(
  app: App,
  target: CompareTarget,
  request: ComparisonRequest,
): Promise<ComparisonRecord> {
  const { pair, rows } = storedRows(app, target)
  const spec = pair.live
  return serialized(app, spec, async () => {
    const queue = await compareQueue(app, target)
    const card = queue.cards.find((c) => c.question === request.question && c.state_hash === request.stateHash)
    const question = spec.questions.find((q) => q.name === request.question)
    if (!question)
      throw new UsageError(
        `unknown question ${JSON.stringify(request.question.slice(0, 64))}; ` +
          `the questions of ${spec.name} are: ${spec.questions.map((q) => q.name).join(', ')}`,
      )
    if (!question.labels.includes(request.label))
      throw new UsageError(
        `label must be one of ${question.labels.join(', ')}, not ${JSON.stringify(request.label.slice(0, 64))}`,
      )
    if (!card)
      throw new ConflictError(
        `question ${request.question}: the comparison does not offer that row; its label is known already, ` +
          'or the two specs agree on it',
      )
    const record: ComparisonRecord = {
      reviewed_at: request.reviewedAt,
      reviewer: request.reviewer,
      judgment: spec.name,
      question: request.question,
      state_hash: request.stateHash,
      // model_label is the live spec's label, as on every line of the live judgment's file.
      kind: COMPARE_KIND,
      verdict: 'labeled',
      labels: [request.label],
      model_label: rows.find((r) => r.stateHash === card.state_hash)!.live[request.question],
      key_label: null,
      state: card.state,
      stratum: null,
      rank: null,
    }
    await written(spec, () => app.files.appendComparison(spec, record))
    return record
  })
}
