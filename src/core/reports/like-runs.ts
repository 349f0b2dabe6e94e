import { pairedMixPValue } from '../stats/paired-mix-test.ts'
import type { RunLabelCount } from '../../ports/run-store.ts'
import type { DriftEntry, ModelCheck, RunRecord } from '../types.ts'
import { addCount, shares } from './drift.ts'
import { compareWith, sourceHistory, type BaselineMix, type DataComparison } from './data-comparison.ts'
import { dataChange, flipShare, modelChange, modelMixes } from './model-drift.ts'

/** Which runs a like-runs report covers; each filter left out takes every run. */
export interface LikeFilter {
  readonly command?: string | null
  readonly source?: string | null
  /** Complete runs only: failed runs are then left out rather than shown. */
  readonly completed?: boolean
}

/**
 * A drift entry of a like-runs series: a run compared with the previous complete run of the same
 * command and source (its baseline), the change split into the model's part and the data's.
 */
export interface LikeDriftEntry extends DriftEntry {
  readonly command: string
  readonly source: string
  readonly status: string
  readonly reported_model: string
  /** The run compared with; null for the first complete run of its series. */
  readonly baseline: string | null
  /** The model part: the old and new models' mixes on the same rows; 0 for the same model, null when unmeasured. */
  readonly model_change: number | null
  /** Rows the model part was measured on; null without a model check. */
  readonly model_rows: number | null
  /** Share of those rows whose label the new model changed; null without a model check. */
  readonly model_flips: number | null
  /** The data part: the change with the model held; the whole change for the same model. */
  readonly data_change: number | null
  /**
   * The p value of "both models give one mix" on the model check's rows (core/stats/paired-mix-test.ts); null when
   * unmeasured.
   */
  readonly model_p_value: number | null
  /** The run against the previous complete run of the same command on another source: the data moved. */
  readonly other_data: DataComparison | null
}

interface RunMix {
  readonly count: RunLabelCount
  readonly labels: Map<string, { counts: Record<string, number>; squares: Record<string, number> | null }>
}

/** Whether two runs are like: the same judgment, command and source. */
export function isLike(a: Pick<RunRecord, 'command' | 'source'>, b: Pick<RunRecord, 'command' | 'source'>): boolean {
  return a.command === b.command && a.source === b.source
}

/** The order of runs everywhere they are listed: newest start first, then the greater run id. */
export function newestFirst(a: RunRecord, b: RunRecord): number {
  return a.started_at < b.started_at
    ? 1
    : a.started_at > b.started_at
      ? -1
      : a.run_id < b.run_id
        ? 1
        : a.run_id > b.run_id
          ? -1
          : 0
}

/** The baseline of a run among a judgment's runs: the newest complete like run that started before it. */
export function previousLike(runs: readonly RunRecord[], run: RunRecord): RunRecord | null {
  const like = runs.filter(
    (r) => r.judgment === run.judgment && r.status === 'complete' && isLike(r, run) && newestFirst(r, run) > 0,
  )
  return like.sort(newestFirst)[0] ?? null
}

/**
 * Drift per question between like runs: each run (oldest first, as the filter keeps them) against
 * the previous complete run of its command and source. A failed run is shown with its change but
 * is never a baseline and never alerts. Every question named is present.
 */
export function likeDrift(
  counts: readonly RunLabelCount[],
  questions: readonly string[],
  checks: readonly ModelCheck[],
  filter: LikeFilter = {},
): Record<string, LikeDriftEntry[]> {
  const runs = new Map<string, RunMix>()
  for (const c of counts) {
    const run: RunMix = runs.get(c.run_id) ?? { count: c, labels: new Map() }
    runs.set(c.run_id, run)
    const mix = run.labels.get(c.question) ?? { counts: {}, squares: {} }
    run.labels.set(c.question, mix)
    addCount(mix, c)
  }
  const checkOf = new Map(checks.map((c) => [c.run_id, c]))
  const out: Record<string, LikeDriftEntry[]> = {}
  for (const question of questions) {
    const last = new Map<string, BaselineMix & { reported_model: string }>()
    const sources = sourceHistory()
    out[question] = []
    for (const { count, labels } of runs.values()) {
      const counted = labels.get(question)
      if (!counted) continue
      const series = `${count.command}\0${count.source}`
      const base = last.get(series) ?? null
      const mix = shares(counted.counts)
      const mixed = { shares: mix, ...counted }
      const complete = count.status === 'complete'
      const otherBase = sources.otherThan(count.command, count.source)
      if (complete) {
        const baseline = { run_id: count.run_id, source: count.source, ...mixed }
        last.set(series, { ...baseline, reported_model: count.reported_model })
        sources.record(count.command, baseline)
      }
      if (!kept(count, filter)) continue
      const same = compareWith(base, mixed, complete)
      const change = same?.change ?? null
      out[question].push({
        run_id: count.run_id,
        rows: count.rows,
        shares: mix,
        change,
        alert: same?.alert ?? false,
        p_value: same?.p_value ?? null,
        significant: same?.significant ?? false,
        command: count.command,
        source: count.source,
        status: count.status,
        reported_model: count.reported_model,
        baseline: base?.run_id ?? null,
        ...parts(question, change, base, count, mix, checkOf.get(count.run_id)),
        other_data: compareWith(otherBase, mixed, complete),
      })
    }
  }
  return out
}

function kept(count: RunLabelCount, filter: LikeFilter): boolean {
  if (filter.command != null && count.command !== filter.command) return false
  if (filter.source != null && count.source !== filter.source) return false
  return !filter.completed || count.status === 'complete'
}

type Parts = Pick<LikeDriftEntry, 'model_change' | 'model_rows' | 'model_flips' | 'data_change' | 'model_p_value'>

function parts(
  question: string,
  change: number | null,
  base: { run_id: string; reported_model: string; shares: Record<string, number> } | null,
  count: RunLabelCount,
  mix: Record<string, number>,
  check: ModelCheck | undefined,
): Parts {
  const none: Parts = {
    model_change: null,
    model_rows: null,
    model_flips: null,
    data_change: null,
    model_p_value: null,
  }
  if (base === null || change === null) return none
  if (base.reported_model !== '' && base.reported_model === count.reported_model)
    return { ...none, model_change: 0, data_change: change }
  if (!check || check.baseline !== base.run_id) return none
  const mixes = modelMixes(check, question)
  const model_p_value = mixes === null ? null : pairedMixPValue(check.pairs.filter((p) => p.question === question))
  return {
    model_change: modelChange(mixes),
    model_rows: mixes?.rows ?? 0,
    model_flips: flipShare(mixes),
    data_change: dataChange(check, mixes, base.shares, mix),
    model_p_value,
  }
}
