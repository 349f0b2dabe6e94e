/**
 * The rate a pace keeps once the engine refused it (429): the engine's limits move without notice
 * (docs/engine.md), so a refusal below ENGINE_RPM says the real limit is lower. The rate drops at
 * once to a share of the refused rate, climbs back within a few seconds to just under it, then
 * probes upward gently, a little each second, until the next refusal or ENGINE_RPM.
 */
export interface PaceCut {
  /** When the rate was cut, ms since the epoch. */
  readonly at: number
  /** The rate refused, requests a minute: above the real limit. */
  readonly ceiling: number
}

/** The share of the refused rate the pace drops to at once. */
export const CUT_TO = 0.85
/** The share of the refused rate the pace climbs back to, its time constant, and the gentle probe beyond. */
export const SETTLE_AT = 0.97
export const SETTLE_MS = 2_000
/** The probe: the rate grows by this share of the refused rate each second after the cut. */
export const PROBE_PER_S = 0.002

/** The rate in requests a minute at `now`: `rpm` (ENGINE_RPM) without a cut, never above it. */
export function adaptedRpm(rpm: number, cut: PaceCut | null, now: number): number {
  if (cut === null || rpm <= 0) return rpm
  const seconds = Math.max(0, now - cut.at) / 1000
  const settling = SETTLE_AT - (SETTLE_AT - CUT_TO) * Math.exp(-(seconds * 1000) / SETTLE_MS)
  return Math.min(rpm, cut.ceiling * (settling + PROBE_PER_S * seconds))
}

/** The cut a refusal at `now` makes: the rate in force then is the one refused. */
export function cutAt(rpm: number, cut: PaceCut | null, now: number): PaceCut {
  return { at: now, ceiling: adaptedRpm(rpm, cut, now) }
}
