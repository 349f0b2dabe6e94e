import type { RunRecord } from '../types.ts'
import { isLike, newestFirst } from './like-runs.ts'

/** Row lists kept per like series (command and source of one judgment) when no count is given. */
export const DEFAULT_KEEP = 10

/**
 * The runs whose row lists (`_judge_run_states`) may go, newest first: within each like series
 * (one judgment's runs of one command and source), all but the newest `keep` runs and the newest
 * complete run, which is the series' drift baseline and the rows a model check samples. Only row
 * lists: a run's record and label counts are never pruned, so drift and the history stay whole.
 */
export function runsToPrune(runs: readonly RunRecord[], keep: number): RunRecord[] {
  const series: RunRecord[][] = []
  for (const run of [...runs].sort(newestFirst)) {
    const same = series.find((s) => s[0].judgment === run.judgment && isLike(s[0], run))
    if (same) same.push(run)
    else series.push([run])
  }
  return series
    .flatMap((runsOfSeries) => {
      const baseline = runsOfSeries.find((r) => r.status === 'complete')
      return runsOfSeries.slice(keep).filter((r) => r !== baseline)
    })
    .sort(newestFirst)
}
