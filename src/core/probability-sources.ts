/**
 * How an answer's probability was obtained (docs/engine.md, "Where p comes from"), as the store,
 * the run records, the replies and the pages say it:
 * - `distribution`: the engine's own distribution over the labels (System One, the simulated engine);
 * - `logprobs`: the model's log probabilities of its first token (the OpenAI-compatible engine);
 * - `samples`: the share of `k` answers asked at a temperature above 0 (a model that gives no probabilities);
 * - `text`: the label one text answer names, probability 1 (`k = 1`): routes and thresholds on p mean nothing;
 * - `vote`: a jury's vote, each juror's label counted equally (before people have reviewed enough rows);
 * - `jury`: a jury's posterior, each juror weighted by its confusion matrix against people's verdicts (Dawid–Skene).
 */
export const PROBABILITY_SOURCES = ['distribution', 'logprobs', 'samples', 'text', 'vote', 'jury'] as const

/** How an answer's probability was obtained (PROBABILITY_SOURCES). */
export type ProbabilitySource = (typeof PROBABILITY_SOURCES)[number]
