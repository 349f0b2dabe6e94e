import type { ExpiredJudgment } from '../app/forget-expired.ts'
import { DAY_MS } from '../core/forget/retention.ts'
import type { Project } from '../core/types.ts'
import { loadRequested, type ServerContext } from './context.ts'
import { specFolders } from './folders.ts'
import { lazy } from '../lazy.ts'

const forgetting = lazy<typeof import('../app/forget-expired.ts')>(import.meta.url, '../app/forget-expired.ts')

/** Runs `work` after `ms`, on a timer that does not keep the process alive; returns what cancels it. */
export type Schedule = (work: () => void, ms: number) => () => void

/**
 * When a server applies retain_days: first soon after it starts (a server restarted daily still does), then once a day.
 */
export interface RetentionOptions {
  readonly schedule?: Schedule
  /** Milliseconds after the start; default one minute. */
  readonly firstMs?: number
  /** Milliseconds between passes; default a day. */
  readonly everyMs?: number
}

/** The timers of a running server: unref'd, so that they never hold a process that has nothing else to do. */
export const unrefSchedule: Schedule = (work, ms) => {
  const timer = setTimeout(work, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

/**
 * Starts applying retain_days on a schedule: each pass forgets what every judgment under the
 * served folder keeps past its retain_days, and logs what went. Returns what stops it (graceful
 * shutdown); a pass under way is tracked as the server's work, so a shutdown waits for it.
 */
export function startRetention(ctx: ServerContext, options: RetentionOptions = {}): () => void {
  const { schedule = unrefSchedule, firstMs = 60_000, everyMs = DAY_MS } = options
  let cancel: (() => void) | null = null
  const next = (ms: number): void => {
    cancel = schedule(() => void ctx.tasks.track(applyRetention(ctx)).then(() => cancel !== null && next(everyMs)), ms)
  }
  next(firstMs)
  return () => {
    cancel?.()
    cancel = null
  }
}

/** One pass: each folder of specs in turn; one that fails to load or to forget is logged and passed over. */
export async function applyRetention(ctx: ServerContext): Promise<void> {
  for (const path of specFolders(ctx.config.projects)) {
    let project: Project
    try {
      project = loadRequested(ctx, path)
    } catch {
      // A folder whose specs do not load shows its error on the home page; it has nothing to apply.
      continue
    }
    if (!project.specs.some((s) => s.retainDays !== null)) continue
    try {
      // Forgetting is loaded with the first judgment that has a retain_days to apply.
      const { forgetExpired } = forgetting()
      const report = await forgetExpired(ctx.runtime, { project, apply: true, command: 'server' })
      const gone = report.judgments.filter((j) => j.states.length > 0)
      for (const judgment of gone) ctx.log(retentionLine(path, judgment))
      if (gone.length > 0) ctx.replies.clear()
    } catch (error) {
      ctx.log(
        `retain_days of ${path}: ${ctx.clean((error as Error)?.message ?? String(error))}; ` +
          'tried again at the next pass',
      )
    }
  }
}

/** What one judgment's retention removed, as the server logs it: counts and hashes, never values. */
export function retentionLine(path: string, j: ExpiredJudgment): string {
  const { values, kept_rows: kept, review_lines: lines } = j.removed
  const where = path === '.' ? j.judgment : `${path}/${j.judgment}`
  const cleared = j.log_cleared === false ? "; the store's log could not be emptied (another process was reading)" : ''
  return (
    `retain_days ${j.retain_days} of ${where}: forgot the values of ${values} rows, ` +
    `the state of ${lines} reviews-file lines and ${kept} kept rows, older than ${j.before}${cleared}`
  )
}
