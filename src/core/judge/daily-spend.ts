import { RetryLaterError } from '../../errors.ts'
import { formatUsd } from '../../format.ts'
import type { PaceStore } from '../../ports/pace-store.ts'

/** A spend cap across operations: checked before each engine request, told its cost after. */
export interface SpendMeter {
  /** Throws a RetryLaterError (503) when `estimate` USD more would pass the cap; asks nothing. */
  check(estimate: number): void
  /**
   * Adds what a request cost; with `simulated` (an engine that spends nothing), what it would have cost, counted apart
   * and held by no cap.
   */
  record(cost: number, requests: number, simulated?: boolean): void
}

/** The spend source of server requests in the store. */
export const SERVER_SPEND = 'server'

/** The source under which a spend source's simulated answers are counted apart: `server-simulated`. */
export function simulatedSource(source: string): string {
  return `${source}-simulated`
}

/** The UTC day of a date, YYYY-MM-DD. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** Today's spend of a source in a store, in USD. */
export function spentToday(store: PaceStore, source: string, now: Date): number {
  const [latest] = store.spendByDay(source, 1)
  return latest?.day === utcDay(now) ? latest.cost : 0
}

/**
 * A daily cap over a store's spend of one source (the server), per UTC day; null records spend
 * without a cap. Every process sharing the store shares the cap, since the spend lives there.
 */
export function dailySpend(store: PaceStore, cap: number | null, now: () => Date, source = SERVER_SPEND): SpendMeter {
  return {
    check(estimate) {
      if (cap === null) return
      const at = now()
      const spent = spentToday(store, source, at)
      if (spent + estimate > cap + 1e-12) throw capReached(spent, cap, secondsToMidnight(at))
    },
    record(cost, requests, simulated = false) {
      store.addSpend(utcDay(now()), simulated ? simulatedSource(source) : source, cost, requests)
    },
  }
}

function capReached(spent: number, cap: number, retryAfterS: number): RetryLaterError {
  return new RetryLaterError(
    `the server's daily engine spend cap of $${formatUsd(cap)} (JUDGE_SERVER_MAX_DAILY_COST) is reached: ` +
      `$${formatUsd(spent)} ` +
      'spent today (UTC); rows the store holds are still answered, new rows wait until midnight UTC; nothing was asked',
    retryAfterS,
    { context: { spent, cap } },
  )
}

function secondsToMidnight(at: Date): number {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1)
  return Math.max(1, Math.ceil((midnight - at.getTime()) / 1000))
}
