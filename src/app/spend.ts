import { SERVER_SPEND, simulatedSource, utcDay } from '../core/judge/daily-spend.ts'
import type { Project } from '../core/types.ts'
import type { DaySpend } from '../ports/pace-store.ts'
import type { App } from './app.ts'

/** Days of spend listed. */
export const SPEND_DAYS = 7

/** Spend per UTC day: today's, and the last days with any. */
export interface SpendDays {
  /** Today (UTC), zero when nothing was counted. */
  readonly today: DaySpend
  /** The last days with spend, newest first, at most SPEND_DAYS. */
  readonly days: readonly DaySpend[]
}

/** The server's engine spend in the store of a project's folder, per UTC day (`GET /v1/spend`, `/`). */
export interface ServerSpend extends SpendDays {
  /** JUDGE_SERVER_MAX_DAILY_COST, or null when there is no daily cap. */
  readonly daily_cap: number | null
  /** What the simulated engine's answers would have cost on the same days: nothing was spent, and no cap counts it. */
  readonly simulated: SpendDays
}

/**
 * The engine spend of server requests (live and shadow judgments) in a project's store. Every
 * server process sharing the store adds to it and shares the daily cap. The simulated engine's
 * answers, which spend nothing, are counted apart. Reading creates no store.
 */
export function serverSpend(app: App, project: Project, dailyCap: number | null): ServerSpend {
  const day = utcDay(app.now())
  const store = app.existingStore(project)
  const daysOf = (source: string): SpendDays => {
    const days = store?.spendByDay(source, SPEND_DAYS) ?? []
    return { today: days.find((d) => d.day === day) ?? { day, cost: 0, requests: 0 }, days }
  }
  return { daily_cap: dailyCap, ...daysOf(SERVER_SPEND), simulated: daysOf(simulatedSource(SERVER_SPEND)) }
}
