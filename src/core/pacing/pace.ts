import type { PaceStore } from '../../ports/pace-store.ts'
import { adaptedRpm, cutAt, type PaceCut } from './adaptive-rate.ts'

/**
 * Requests are spaced this much wider than ENGINE_RPM asks, so that a request the network delays
 * less than the one a window before it still never arrives early: at 1,200 a minute, 1.2 s a minute.
 */
export const PACE_MARGIN = 0.02

/** Sleeps `ms`, rejecting when the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

/**
 * The pace of one engine on one store: requests spaced evenly at the engine's rate (ENGINE_RPM),
 * and every request held back while the engine asked to wait (Retry-After). When the engine
 * refuses the rate (429), the rate drops below what it refused and climbs back gently
 * (adaptive-rate.ts). All three live in the store, so every process sharing it keeps one pace:
 * server workers and CLI runs together.
 */
export interface Pace {
  /**
   * Waits for the turn to send `requests` requests and returns 0, or, when the turn is more than
   * `maxWaitMs` away, reserves nothing and returns how long it is. A hold set by this process while
   * waiting (another request was refused) sends it back for a turn after the hold.
   */
  turn(requests: number, maxWaitMs: number, signal?: AbortSignal): Promise<number>
  /**
   * Counts `requests` already sent beyond their turns (an engine that found out while asking that it must ask more):
   * the pace moves on by their spacing, waiting for nothing, so that the requests after them keep the rate.
   */
  spent(requests: number): void
  /** Holds every request of the pace back until `until`. */
  hold(until: number): void
  /** The end of the longest wait this process is in now, or null; waits under a second are not told. */
  waitingUntil(): number | null
  /** The engine refused a request sent at `sentAt` for its rate: the rate is cut, once per round of refusals. */
  refused(sentAt: number): void
  /** The rate kept now, in requests a minute (ENGINE_RPM until a refusal), and the last cut, or null. */
  rate(): { readonly rpm: number; readonly cut: PaceCut | null }
}

/** Options of createPace. */
export interface PaceOptions {
  readonly store: PaceStore
  /** The engine's name in the store's pace table. */
  readonly key: string
  /** Requests per minute; 0 spaces nothing (holds still apply). */
  readonly rpm: number
  readonly now: () => number
  readonly sleep: Sleep
}

/** A pace over the store's pace table. */
export function createPace(options: PaceOptions): Pace {
  const { store, key, rpm, now, sleep } = options
  const spacingAt = (t: number): number => {
    if (rpm <= 0) return 0
    return (60_000 / adaptedRpm(rpm, store.paceCut(key), t)) * (1 + PACE_MARGIN)
  }
  const waits = new Map<symbol, number>()
  let heldUntil = 0
  const wait = async (until: number, signal?: AbortSignal): Promise<void> => {
    const ms = until - now()
    if (ms <= 0) return
    const id = Symbol('wait')
    if (ms >= 1000) waits.set(id, until)
    try {
      await sleep(ms, signal)
    } finally {
      waits.delete(id)
    }
  }
  return {
    async turn(requests, maxWaitMs, signal) {
      for (;;) {
        const start = now()
        const slot = store.reservePace(key, start, spacingAt(start) * requests, start + maxWaitMs)
        if (!slot.reserved) return slot.at - start
        await wait(slot.at, signal)
        if (heldUntil <= slot.at) return 0
      }
    },
    spent(requests) {
      const start = now()
      store.reservePace(key, start, spacingAt(start) * requests, Infinity)
    },
    hold(until) {
      heldUntil = Math.max(heldUntil, until)
      store.holdPace(key, until)
    },
    waitingUntil() {
      return waits.size === 0 ? null : Math.max(...waits.values())
    },
    refused(sentAt) {
      if (rpm <= 0) return
      const t = now()
      store.cutPace(key, cutAt(rpm, store.paceCut(key), t), sentAt)
    },
    rate() {
      const cut = rpm > 0 ? store.paceCut(key) : null
      return { rpm: adaptedRpm(rpm, cut, now()), cut }
    },
  }
}
