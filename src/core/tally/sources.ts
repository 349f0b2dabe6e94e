import { plural } from '../../format.ts'
import { PROBABILITY_SOURCES, type ProbabilitySource } from '../probability-sources.ts'
import type { SourceCounts } from '../types.ts'

/** What a page or the CLI says of a question answered from text alone, next to its routes and thresholds. */
export const TEXT_ONLY_WARNING =
  'answered from text alone: p is 1 for every answer, so routes and thresholds on p or margin mean nothing; ' +
  'set ENGINE_SAMPLES above 1'

/** How each source of p reads in the run's text and page (docs/engine.md, "Where p comes from"). */
export const SOURCE_PHRASES: Readonly<Record<ProbabilitySource, string>> = {
  distribution: "p from the engine's distribution",
  logprobs: 'p from log probabilities',
  samples: 'p from samples',
  text: 'text only: p is 1 for every answer',
  vote: "p from the jury's vote",
  jury: "p from the jury's verdict weighted by people's",
}

/** Counts by source from (source, count) pairs, in the order of PROBABILITY_SOURCES; unknown (null) ones left out. */
export function sourceCounts(pairs: Iterable<readonly [ProbabilitySource | null, number]>): SourceCounts {
  const counts = new Map<ProbabilitySource, number>()
  for (const [source, n] of pairs) if (source !== null && n > 0) counts.set(source, (counts.get(source) ?? 0) + n)
  return Object.fromEntries(PROBABILITY_SOURCES.filter((s) => counts.has(s)).map((s) => [s, counts.get(s)!]))
}

/** Whether any answer counted took its p from one text answer (p 1 whatever the model meant): the page warns. */
export function answeredFromText(counts: SourceCounts | undefined): boolean {
  return (counts?.text ?? 0) > 0
}

/**
 * One question's sources in words, each with its answers: `p from samples (40 answers)`, several joined with `; `;
 * "" when none were counted (a run from before sources were kept).
 */
export function sourcesText(counts: SourceCounts | undefined): string {
  return PROBABILITY_SOURCES.filter((s) => (counts?.[s] ?? 0) > 0)
    .map((s) => `${SOURCE_PHRASES[s]} (${plural(counts![s]!, 'answer')})`)
    .join('; ')
}

/** Counts the source of one answer into a question's running counts; an answer without one is not counted. */
export function countSource(
  counts: Map<ProbabilitySource, number>,
  source: ProbabilitySource | null | undefined,
): void {
  if (source === null || source === undefined) return
  counts.set(source, (counts.get(source) ?? 0) + 1)
}
