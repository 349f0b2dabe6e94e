import { CostCapError, JudgeError, NodeNeededError } from '../errors.ts'
import { formatUsd } from '../format.ts'

/**
 * An error's message as the CLI shows it: the core's message, completed with the CLI's way to act
 * on it (the `--node` flag, the JUDGE_MAX_COST setting that would allow a refused run).
 */
export function cliErrorText(error: JudgeError): string {
  if (error instanceof NodeNeededError) return `${error.problem}; name one with --node NAME`
  if (error instanceof CostCapError) {
    return (
      `${error.message}. To allow it, raise the cap above the estimate: ` +
      `JUDGE_MAX_COST=${formatUsd(roundUp(error.estimate))}`
    )
  }
  return error.message
}

/** The next round amount above `usd` (1, 2 or 5 times a power of ten): 0.0123 -> 0.02. */
export function roundUp(usd: number): number {
  if (!(usd > 0)) return 0.01
  const power = 10 ** Math.floor(Math.log10(usd))
  const step = [1, 2, 5, 10].find((m) => m * power > usd) ?? 10
  // Multiplying by a power of ten below 1 drifts (3 * 0.1 = 0.30000000000000004); round it back.
  return Number((step * power).toPrecision(1))
}
