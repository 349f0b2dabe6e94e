import type { LabelMix } from '../stats/design-effect.ts'
import type { DriftEntry } from '../types.ts'
import { DRIFT_ALERT, noiseOf, totalVariation } from './drift.ts'

/**
 * A run's label mix against an earlier complete run's: on the same data (the previous like run,
 * so that a change is the model moving) or on other data (the previous run of the same command on
 * another source, so that a change is the data moving).
 */
export interface DataComparison {
  /** The run compared with. */
  readonly baseline: string
  /** What that run ran on: its source. */
  readonly source: string
  readonly change: number
  /** `change` above the alert threshold, between two complete runs. */
  readonly alert: boolean
  readonly p_value: number | null
  readonly significant: boolean
}

/** A complete run's mix of one question, as a later run is compared with it. */
export type BaselineMix = LabelMix & {
  readonly run_id: string
  readonly source: string
  readonly shares: Record<string, number>
}

/** A drift entry of `GET /v1/drift` with the run's two comparisons added: same data and other data. */
export interface ComparedDriftEntry extends DriftEntry {
  readonly same_data: DataComparison | null
  readonly other_data: DataComparison | null
}

/** A run's mix against a baseline's, alerting only for a complete run; null without a baseline. */
export function compareWith(
  base: BaselineMix | null,
  mix: LabelMix & { readonly shares: Record<string, number> },
  complete: boolean,
): DataComparison | null {
  if (base === null) return null
  const change = totalVariation(base.shares, mix.shares)
  const alert = complete && change > DRIFT_ALERT
  return { baseline: base.run_id, source: base.source, change, alert, ...noiseOf(base, mix, alert) }
}

/**
 * The newest complete run of each source per command, in the order they came: where the previous
 * run on other data is found (the newest of its command whose source is another).
 */
export function sourceHistory(): {
  record(command: string, base: BaselineMix): void
  otherThan(command: string, source: string): BaselineMix | null
} {
  const byCommand = new Map<string, Map<string, BaselineMix>>()
  return {
    record(command, base) {
      const sources = byCommand.get(command) ?? new Map<string, BaselineMix>()
      sources.delete(base.source)
      byCommand.set(command, sources.set(base.source, base))
    },
    otherThan(command, source) {
      const newestLast = [...(byCommand.get(command)?.values() ?? [])]
      return newestLast.findLast((b) => b.source !== source) ?? null
    },
  }
}

/**
 * The interface's drift entries with each run's comparisons on the same data and on other data
 * added, read from the like-runs entries of the same runs (the interface's fields unchanged).
 */
export function withComparisons(
  drift: Readonly<Record<string, readonly DriftEntry[]>>,
  like: Readonly<
    Record<
      string,
      readonly (Pick<DriftEntry, 'run_id' | 'change' | 'alert' | 'p_value' | 'significant'> & {
        readonly source: string
        readonly baseline: string | null
        readonly other_data: DataComparison | null
      })[]
    >
  >,
): Record<string, ComparedDriftEntry[]> {
  const out: Record<string, ComparedDriftEntry[]> = {}
  for (const [question, entries] of Object.entries(drift)) {
    const byRun = new Map((like[question] ?? []).map((e) => [e.run_id, e]))
    out[question] = entries.map((entry) => {
      const mine = byRun.get(entry.run_id)
      const same: DataComparison | null =
        mine?.baseline == null || mine.change === null
          ? null
          : {
              baseline: mine.baseline,
              source: mine.source,
              change: mine.change,
              alert: mine.alert,
              p_value: mine.p_value,
              significant: mine.significant,
            }
      return { ...entry, same_data: same, other_data: mine?.other_data ?? null }
    })
  }
  return out
}
