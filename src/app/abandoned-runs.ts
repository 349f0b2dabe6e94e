import { hostname } from 'node:os'
import type { OpenRun, RunStore } from '../ports/run-store.ts'

/** How often a run still going writes itself down, whether or not it stored answers since. */
export const HEARTBEAT_MS = 30_000

/**
 * A run not written down for this long is abandoned even if a process of its id lives: the id
 * may be another process's by now, or the run another machine's, whose processes cannot be seen.
 */
export const ABANDONED_MS = 10 * 60_000

/** The status an abandoned run is recorded with: the one a run stopped by Ctrl-C gets. */
export const INTERRUPTED = 'failed: interrupted'

/** This process as runs record it, and how to tell whether another process still lives. */
export interface RunProcess {
  readonly pid: number
  readonly host: string
  alive(pid: number): boolean
}

/** The process this code runs in. */
export const THIS_PROCESS: RunProcess = { pid: process.pid, host: hostname(), alive: processAlive }

/** Whether a process of this id lives on this machine: signal 0 checks without signalling. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it lives, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether an open run's process is gone: on this machine and dead, or silent for ABANDONED_MS. */
export function isAbandoned(open: OpenRun, now: Date, self: RunProcess): boolean {
  if (now.getTime() - Date.parse(`${open.heartbeat_at}Z`) > ABANDONED_MS) return true
  return open.host === self.host && !self.alive(open.pid)
}

/**
 * Records every abandoned open run of a store (a `judge run` killed with -9, a machine that lost
 * power) as `failed: interrupted`, with the spend, answers and rows it last wrote down, finished
 * when it last did. Several processes may do it at once: each run is recorded once. Returns the
 * runs recorded.
 */
export function settleAbandoned(store: RunStore, now: Date, self: RunProcess = THIS_PROCESS): string[] {
  const settled: string[] = []
  for (const open of store.openRuns()) {
    if (!isAbandoned(open, now, self)) continue
    const run = { ...open.run, status: INTERRUPTED, finished_at: open.heartbeat_at }
    if (store.closeOpenRun(run, open.counts)) settled.push(run.run_id)
  }
  return settled
}

/**
 * settleAbandoned for a reader (a listing, a page): a store it cannot write (read-only, busy past
 * the timeout) leaves the runs open, to be recorded by the next process that can, and the reading
 * goes on.
 */
export function settleWhileReading(store: RunStore | null, now: Date, self: RunProcess = THIS_PROCESS): void {
  if (store === null) return
  try {
    settleAbandoned(store, now, self)
  } catch {
    // Nothing is lost: the runs stay open, and the listing shows what is recorded.
  }
}
