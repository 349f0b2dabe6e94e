/**
 * The wait after failed attempt `attempt` (0-based) when the engine named none: from `minMs`, doubling, jittered
 * by up to as much again, at most `maxMs`.
 */
export function backoffMs(attempt: number, minMs: number, maxMs: number, random: () => number): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 20))
  return Math.round(Math.min(maxMs, base * (1 + random())))
}
