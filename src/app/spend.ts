import { SERVER_SPEND, utcDay } from '../core/judge/daily-spend.ts'
import type { Project } from '../core/types.ts'
import type { DaySpend } from '../ports/pace-store.ts'
import type { App } from './app.ts'

/** Days of spend listed. */
export const SPEND_DAYS = 7

/** The server's engine spend in the store of a project's folder, per UTC day (`GET /v1/spend`, `/`). */
export interface ServerSpend {
  /** JUDGE_SERVER_MAX_DAILY_COST, or null when there is no daily cap. */
  readonly daily_cap: number | null
  /** Today (UTC), zero when nothing was spent. */
  readonly today: DaySpend
  /** The last days with spend, newest first, at most SPEND_DAYS. */
  readonly days: readonly DaySpend[]
}

/**
 * The engine spend of server requests (live and shadow judgments) in a project's store. Every
 * server process sharing the store adds to it and shares the daily cap. Reading creates no store.
 */
export function serverSpend(app: App, project: Project, dailyCap: number | null): ServerSpend {
  const day = utcDay(app.now())
  const days = app.existingStore(project)?.spendByDay(SERVER_SPEND, SPEND_DAYS) ?? []
  return { daily_cap: dailyCap, today: days.find((d) => d.day === day) ?? { day, cost: 0, requests: 0 }, days }
}
