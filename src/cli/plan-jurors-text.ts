import { estimateShare, type JuryPlan } from '../app/jury-plan.ts'
import { costWithSimulated, count } from '../format.ts'
import { jurorCost } from './jury-text.ts'
import { table } from './text.ts'

/**
 * Each jury's jurors as `judge plan` prints them after its table: per juror its engine, the answers the store holds
 * (which cost nothing), what it would ask and its estimated cost at its engine's price, then the jury's total. Empty
 * without a jury.
 */
export function juryPlanText(juries: readonly JuryPlan[]): string {
  return juries
    .map((jury) => {
      const rows = [
        ...jury.jurors.map((j) => [
          j.model,
          j.engine ?? 'ENGINE',
          count(j.cached),
          count(j.ask),
          count(j.requests),
          jurorCost(j.estimate, [j.model]),
        ]),
        ['all jurors', '', '', count(jury.ask), count(jury.requests), totalCost(jury)],
      ]
      const text = table(['juror', 'engine', 'cached', 'ask', 'requests', 'estimate'], rows)
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => `  ${line}\n`)
      const takes =
        jury.answers === null
          ? ''
          : `; its ${count(jury.answers)} answers to ask take ${count(jury.ask)} of its jurors'`
      const head = `${jury.judgment}: a jury of ${jury.jurors.length} models, each asked and priced apart`
      return `${head}${takes}:\n${lines.join('')}`
    })
    .join('')
}

/**
 * The jurors' total cost: said simulated when every juror's answers are; else what the real jurors would spend, with
 * the simulated jurors' share beside it, which spends nothing.
 */
function totalCost(jury: JuryPlan): string {
  const { shown, simulated } = estimateShare(jury)
  if (simulated === 0)
    return jurorCost(
      jury.estimate,
      jury.jurors.map((j) => j.model),
    )
  return costWithSimulated(shown, simulated)
}

/** A plan entry of `judge plan --json` with its jury's jurors and total, when the judgment names a jury. */
export function withJury<T extends { readonly judgment: string }>(entry: T, juries: readonly JuryPlan[]) {
  const jury = juries.find((j) => j.judgment === entry.judgment)
  return jury
    ? { ...entry, jurors: jury.jurors, jury_total: { ask: jury.ask, requests: jury.requests, estimate: jury.estimate } }
    : entry
}
