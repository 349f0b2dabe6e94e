import { estimateOf } from '../core/judge/ask.ts'
import { tokenCost } from '../core/judge/cost.ts'
import { jurorEngineOf, seatedJurors, type JudgeDeps, type JurorEngine, type ModelDeps } from '../core/judge/deps.ts'
import {
  comparedRows,
  jurorAccuracy,
  type JurorRowsAccuracy,
  type LabelsOf,
  type RowsAccuracy,
} from '../core/jury/juror-accuracy.ts'
import { fitJury } from '../core/jury/dawid-skene.ts'
import { juryFit, reviewedLabelsOf, type JuryFitStore } from '../core/jury/jury-fits.ts'
import { juryWeights, type JuryWeights } from '../core/jury/jury-weights.ts'
import { hasJury, juryModelId } from '../core/jury/jurors.ts'
import type { Verdicts } from '../core/review/verdicts.ts'
import type { Question, Spec, State } from '../core/types.ts'
import type { AnswerStore } from '../ports/answer-store.ts'
import { jurorEngineName } from './jury-plan.ts'

/** The jury's figures on a question's compared rows, and what its jurors' answers to them cost, estimated. */
export interface JuryFigures extends RowsAccuracy {
  /** Every juror's estimated cost of these rows, summed. */
  readonly cost_usd: number
  /** The weights the jury answers this question with: the fit judging uses, as it stands now. */
  readonly weights: JuryWeights
}

/** One juror's figures: accuracy, against the jury, and the estimated cost of its answers to the compared rows. */
export interface JurorFigures extends JurorRowsAccuracy {
  /** The engine that asks it: the spec's, else the configured ENGINE's name; null for an engine passed in code. */
  readonly engine: string | null
  /**
   * What its answers to this question on the compared rows cost, estimated: its engine's estimate and price of one
   * request a row, times k for a sampled answer (the store keeps no cost per juror).
   */
  readonly cost_usd: number
}

/** What a juror buys on one question: the jury's figures and each juror's, on the same reviewed rows. */
export interface JuryQuestion {
  readonly jury: JuryFigures
  readonly jurors: readonly JurorFigures[]
}

/** What juryQuestions reads: the judgment, its counting verdicts, and its store with its deps (null before a store). */
export interface JuryInput {
  readonly spec: Spec
  readonly verdicts: Verdicts
  readonly source: {
    readonly store: AnswerStore & JuryFitStore
    readonly deps: ModelDeps & Pick<JudgeDeps, 'pricePerMtok' | 'engineName'>
  } | null
}

/**
 * Per question of a jury spec, each juror's accuracy and the jury's on the reviewed rows every one of them answered,
 * each juror against the jury, and each juror's estimated cost of those rows; null for a one-model spec. Without a
 * store there are no rows, and the jurors carry the models the spec names.
 */
export function juryQuestions(input: JuryInput): Record<string, JuryQuestion> | null {
  const { spec, source } = input
  if (!hasJury(spec)) return null
  const deps = source?.deps ?? { defaultModel: '', engine: null, pricePerMtok: 0 }
  const seated = source ? seatedJurors(spec, deps) : spec.jurors.map((juror) => ({ juror, model: juror.model }))
  const jury = juryModelId(seated)
  const truths = truthsOf(input)
  const hashes = [...new Set([...truths.values()].flatMap((t) => [...t.keys()]))]
  const fingerprints = spec.questions.map((q) => q.fingerprint)
  const read = source && hashes.length > 0 ? source.store : null
  const labelsOf = (model: string) => read?.answerLabels(model, fingerprints, hashes) ?? new Map()
  const [juryLabels, ...jurorLabels] = [jury, ...seated.map((s) => s.model)].map(labelsOf)
  const states = read?.getStates(hashes) ?? new Map<string, State>()
  const reviewed = reviewedLabelsOf(spec.name, input.verdicts.values())
  const models = seated.map((s) => s.model)
  // The fit judging uses (core/judge/ask-jury.ts): the same store, jury id, jurors and reviewed labels. Without a store
  // no juror answered anything, and the fit of nothing is the equal vote.
  const weightsOf = (q: Question) =>
    juryWeights(
      source
        ? juryFit({ store: source.store, jury, jurors: models, question: q, reviewed: reviewed.get(q.name) ?? NONE })
        : fitJury({ labels: q.labels, jurors: models.length, patterns: [], anchors: [] }),
      models,
    )
  return Object.fromEntries(
    spec.questions.map((q): [string, JuryQuestion] => {
      const labels = (held: Map<string, Map<string, string>>, model: string): LabelsOf => ({
        model,
        labels: held.get(q.fingerprint) ?? new Map(),
      })
      const compare = {
        truth: truths.get(q.name)!,
        jury: labels(juryLabels, jury),
        jurors: seated.map((s, i) => labels(jurorLabels[i], s.model)),
      }
      const rows = comparedRows(compare).flatMap((h) => (states.has(h) ? [{ hash: h, state: states.get(h)! }] : []))
      const { jury: figures, jurors } = jurorAccuracy(compare)
      const costs = seated.map((s) => rowsCost(q, s.model, jurorEngineOf(deps, s.juror), rows, read))
      return [
        q.name,
        {
          jury: { ...figures, cost_usd: costs.reduce((a, b) => a + b, 0), weights: weightsOf(q) },
          jurors: jurors.map((j, i) => ({
            model: j.model,
            engine: jurorEngineName(deps, seated[i].juror),
            rows: j.rows,
            correct: j.correct,
            accuracy: j.accuracy,
            interval: j.interval,
            versus_jury: j.versus_jury,
            cost_usd: costs[i],
          })),
        },
      ]
    }),
  )
}

const NONE: ReadonlyMap<string, string> = new Map()

/** People's labels by question of the spec, then state hash: each counting verdict that saved one, in one pass. */
function truthsOf(input: JuryInput): Map<string, Map<string, readonly string[]>> {
  const truths = new Map(input.spec.questions.map((q) => [q.name, new Map<string, readonly string[]>()]))
  for (const v of input.verdicts.values())
    if (v.judgment === input.spec.name && v.labels.length > 0) truths.get(v.question)?.set(v.state_hash, v.labels)
  return truths
}

/**
 * What asking a juror one question about these rows cost, estimated: per row, its engine's estimate of one request at
 * its price, times the answers its stored answer is the share of (`samples`: k for a sampled answer; 1 otherwise), so
 * that a sampled juror's k requests are counted whatever this process knows of its model.
 */
export function rowsCost(
  question: Question,
  model: string,
  asks: JurorEngine,
  rows: readonly { readonly hash: string; readonly state: State }[],
  store: Pick<AnswerStore, 'answersForStates'> | null,
): number {
  const asked = new Map(
    (
      store?.answersForStates(
        model,
        question.fingerprint,
        rows.map((r) => r.hash),
      ) ?? []
    ).map((a) => [a.stateHash, a]),
  )
  let usd = 0
  for (const { hash, state } of rows) {
    const request = { model, state, questions: [question], samples: 1 }
    usd += tokenCost(estimateOf(asks.engine, request).inputTokens * (asked.get(hash)?.samples ?? 1), asks.pricePerMtok)
  }
  return usd
}
