import { wilsonInterval } from '../stats/wilson.ts'
import { checkInput, checkSaid, keyOf, type JuryInput, type Said } from './jury-input.ts'

export { patternsOf, type Anchor, type JuryInput, type Pattern, type Said } from './jury-input.ts'

/** A fitted jury: an equal vote, or Dawid and Skene's model anchored on the reviewed rows. */
export interface JuryFit {
  /** 'vote' before MIN_REVIEWED reviewed rows, else 'jury'. */
  readonly kind: 'vote' | 'jury'
  readonly labels: readonly string[]
  /** How many jurors a row's `said` names. */
  readonly jurors: number
  /** The reviewed rows (anchors), whatever jurors answered them. */
  readonly reviewed: number
  /** The reviewed rows with every juror's answer: what MIN_REVIEWED counts. */
  readonly complete: number
  /** Class prior, by label index ('vote': the label mix the equal vote gives over the rows). */
  readonly prior: readonly number[]
  /** confusion[j][t][s]: P(juror j says s | truth t); null for 'vote'. */
  readonly confusion: readonly (readonly (readonly number[])[])[] | null
  /** Per juror, per truth, per said: a 95% interval for confusion[j][t][s]; null for 'vote'. */
  readonly intervals: readonly (readonly (readonly (readonly [number, number])[])[])[] | null
  /** Per juror: its estimated accuracy (sum over t of prior[t]*confusion[j][t][t]); null for 'vote'. */
  readonly accuracy: readonly number[] | null
  /** EM iterations (M-steps) run; 0 for 'vote'. */
  readonly iterations: number
  /** Whether EM stopped because no parameter moved by TOLERANCE (true for 'vote'). */
  readonly converged: boolean
}

/** Settings of a fit, for tests and callers that need other than the defaults. */
export interface JuryOptions {
  /** The least complete reviewed rows for a 'jury' fit (default MIN_REVIEWED). */
  readonly minReviewed?: number
  /** EM stops when no prior or confusion entry moves by more than this in one iteration (default TOLERANCE). */
  readonly tolerance?: number
  /** EM stops after this many iterations, unconverged (default MAX_ITERATIONS). */
  readonly maxIterations?: number
}

/**
 * The least reviewed rows (with every juror's answer) before the jury weighs jurors rather than counting votes.
 * With 30 reviewed rows a juror's accuracy is known to about ±0.15 (Wilson, at 0.8), enough to tell a good juror
 * from one near chance, and each truth row of a confusion matrix of two or three labels has ten or more rows, so the
 * one pseudo-count per cell of the smoothing is a small part of it. With fewer, the weights are mostly noise and
 * the equal vote, which assumes nothing, does as well.
 */
export const MIN_REVIEWED = 30

/** EM stops when no prior or confusion entry moves by more than this in one iteration. */
export const TOLERANCE = 1e-12

/** EM's iteration cap: a fit that has not converged by then keeps its last estimate and says so. */
export const MAX_ITERATIONS = 5000

/**
 * Fits the jury: an equal vote while fewer than MIN_REVIEWED reviewed rows have every juror's answer; after, Dawid and
 * Skene's EM with the reviewed rows' truth held fixed. The M-step adds one to every count (each confusion row and the
 * prior: the posterior mean under a uniform Dirichlet prior), so a label never seen keeps a small probability. The
 * intervals are Wilson's, from the reviewed rows alone (docs/review.md, "A jury").
 */
export function fitJury(input: JuryInput, options: JuryOptions = {}): JuryFit {
  checkInput(input)
  const L = input.labels.length
  const J = input.jurors
  const complete = input.anchors.filter((a) => a.said.every((s) => s !== null)).length
  const minReviewed = options.minReviewed ?? MIN_REVIEWED
  const base = { labels: input.labels, jurors: J, reviewed: input.anchors.length, complete }
  const groups = groupPatterns(input)
  if (complete < minReviewed) {
    return {
      ...base,
      kind: 'vote',
      prior: voteMix(groups, L),
      confusion: null,
      intervals: null,
      accuracy: null,
      iterations: 0,
      converged: true,
    }
  }
  const tolerance = options.tolerance ?? TOLERANCE
  const maxIterations = options.maxIterations ?? MAX_ITERATIONS
  // The first M-step starts from the anchors' truth and the vote on every other row.
  let weights = groups.map((g) => weightsOf(g, voteOf(g.said, L)))
  let params = mStep(groups, weights, L, J)
  let iterations = 1
  let converged = false
  while (iterations < maxIterations) {
    const logs = logParams(params)
    weights = groups.map((g) => weightsOf(g, posteriorOf(logs, g.said)))
    const next = mStep(groups, weights, L, J)
    iterations += 1
    const change = largestChange(params, next)
    params = next
    if (change <= tolerance) {
      converged = true
      break
    }
  }
  const { prior, confusion } = params
  return {
    ...base,
    kind: 'jury',
    prior,
    confusion,
    intervals: anchoredIntervals(input),
    accuracy: confusion.map((rows) => prior.reduce((sum, p, t) => sum + p * rows[t][t], 0)),
    iterations,
    converged,
  }
}

/**
 * The jury's answer for one row: a distribution over the labels (by index), and how many jurors said another label
 * than the jury's top one (ties broken by label order). 'vote': each present juror's label counts 1/(present jurors),
 * and a row no juror answered gets the uniform distribution. 'jury': the posterior prior[t] * prod_j
 * confusion[j][t][said_j] normalised (absent jurors skipped), the prior alone when none answered.
 */
export function juryAnswer(
  fit: JuryFit,
  said: Said,
): { readonly distribution: readonly number[]; readonly dissent: number } {
  checkSaid(said, fit.labels.length, fit.jurors, 'juryAnswer: the row')
  // A fit without matrices (a 'vote') counts votes.
  const distribution =
    fit.confusion === null
      ? voteOf(said, fit.labels.length)
      : posteriorOf(logParams({ prior: fit.prior, confusion: fit.confusion }), said)
  const top = topOf(distribution)
  const dissent = said.filter((s) => s !== null && s !== top).length
  return { distribution, dissent }
}

/** The EM's parameters: the class prior and each juror's confusion matrix. */
interface Params {
  readonly prior: readonly number[]
  readonly confusion: readonly (readonly (readonly number[])[])[]
}

/** One distinct pattern of the rows: its unreviewed rows, and its reviewed rows counted by their truth. */
interface Group {
  readonly said: Said
  readonly unreviewed: number
  readonly anchored: readonly number[]
}

/**
 * The patterns merged by their labels, with the anchors on each counted by truth and taken out of its count. A
 * reviewed row the patterns do not count (the rows and the verdicts read at different moments) is counted as a row
 * of its own rather than refused.
 */
function groupPatterns(input: JuryInput): Group[] {
  const L = input.labels.length
  const groups = new Map<string, { said: Said; count: number; anchored: number[] }>()
  const groupOf = (said: Said) => {
    const key = keyOf(said)
    let found = groups.get(key)
    if (!found) groups.set(key, (found = { said, count: 0, anchored: new Array<number>(L).fill(0) }))
    return found
  }
  for (const p of input.patterns) groupOf(p.said).count += p.count
  for (const a of input.anchors) groupOf(a.said).anchored[a.truth] += 1
  return [...groups.values()].map(({ said, count, anchored }) => {
    const reviewed = anchored.reduce((sum, n) => sum + n, 0)
    return { said, unreviewed: Math.max(0, count - reviewed), anchored }
  })
}

/** A pattern's expected truth counts: its unreviewed rows spread by `truth`, its reviewed rows where people said. */
function weightsOf(group: Group, truth: readonly number[]): number[] {
  return truth.map((p, t) => group.unreviewed * p + group.anchored[t])
}

/** The M-step: prior and confusion from the expected truth counts, one added to every count. */
function mStep(groups: readonly Group[], weights: readonly (readonly number[])[], L: number, J: number): Params {
  const truthCounts = new Array<number>(L).fill(1)
  const said = Array.from({ length: J }, () => Array.from({ length: L }, () => new Array<number>(L).fill(1)))
  groups.forEach((group, g) => {
    const w = weights[g]
    for (let t = 0; t < L; t++) {
      truthCounts[t] += w[t]
      for (let j = 0; j < J; j++) {
        const s = group.said[j]
        if (s !== null) said[j][t][s] += w[t]
      }
    }
  })
  return { prior: normalised(truthCounts), confusion: said.map((rows) => rows.map(normalised)) }
}

/** The logarithms of the parameters, taken once per E-step. */
function logParams(params: Params): Params {
  return {
    prior: params.prior.map(Math.log),
    confusion: params.confusion.map((rows) => rows.map((row) => row.map(Math.log))),
  }
}

/** The posterior over the truth of a row given what the present jurors said, from log parameters. */
function posteriorOf(logs: Params, said: Said): number[] {
  const scores = logs.prior.map((lp, t) => {
    let score = lp
    said.forEach((s, j) => {
      if (s !== null) score += logs.confusion[j][t][s]
    })
    return score
  })
  // Subtracting the largest score keeps exp from underflowing with many jurors.
  const top = Math.max(...scores)
  return normalised(scores.map((s) => Math.exp(s - top)))
}

/** The equal vote on one row: each present juror's label 1/(present jurors); uniform when none is present. */
function voteOf(said: Said, L: number): number[] {
  const votes = new Array<number>(L).fill(0)
  const present = said.filter((s) => s !== null)
  if (present.length === 0) return votes.fill(1 / L)
  for (const s of present) votes[s] += 1 / present.length
  return votes
}

/** The label mix of the equal vote over every row some juror answered; uniform when there is none. */
function voteMix(groups: readonly Group[], L: number): number[] {
  const mix = new Array<number>(L).fill(0)
  let rows = 0
  for (const g of groups) {
    const count = g.unreviewed + g.anchored.reduce((sum, n) => sum + n, 0)
    if (count <= 0 || g.said.every((s) => s === null)) continue
    const vote = voteOf(g.said, L)
    for (let t = 0; t < L; t++) mix[t] += count * vote[t]
    rows += count
  }
  return rows === 0 ? mix.fill(1 / L) : mix.map((m) => m / rows)
}

/**
 * Wilson's 95% interval on each confusion entry, from the reviewed rows alone: for juror j and truth t, the reviewed
 * rows of truth t that juror answered are a random sample of its answers on such rows. [0, 1] without any; exactly
 * [1, 1] for a single label.
 */
function anchoredIntervals(input: JuryInput): [number, number][][][] {
  const L = input.labels.length
  return Array.from({ length: input.jurors }, (_, j) => {
    const counts = Array.from({ length: L }, () => new Array<number>(L).fill(0))
    for (const a of input.anchors) {
      const s = a.said[j]
      if (s !== null) counts[a.truth][s] += 1
    }
    return counts.map((row) => {
      const n = row.reduce((sum, x) => sum + x, 0)
      return row.map((x): [number, number] => (L === 1 ? [1, 1] : (wilsonInterval(x, n) ?? [0, 1])))
    })
  })
}

/** The largest move of any prior or confusion entry between two iterations. */
function largestChange(a: Params, b: Params): number {
  let change = 0
  a.prior.forEach((p, t) => {
    change = Math.max(change, Math.abs(p - b.prior[t]))
  })
  a.confusion.forEach((rows, j) => {
    rows.forEach((row, t) => {
      row.forEach((p, s) => {
        change = Math.max(change, Math.abs(p - b.confusion[j][t][s]))
      })
    })
  })
  return change
}

/** The first label of the largest probability (ties go to the earlier label). */
function topOf(distribution: readonly number[]): number {
  let top = 0
  distribution.forEach((p, i) => {
    if (p > distribution[top]) top = i
  })
  return top
}

/** Numbers divided by their sum. */
function normalised(xs: readonly number[]): number[] {
  const sum = xs.reduce((a, b) => a + b, 0)
  return xs.map((x) => x / sum)
}
