import { byReviewer, type Reviews } from '../review/double-review.ts'
import type { VerdictRecord } from '../review/verdicts.ts'
import { simpleDesign, type LabelPair } from './design.ts'
import { cohenKappa } from '../stats/kappa.ts'

/** What one reviewer said of a row: the labels their standing verdict saved (none for needs_context, ambiguous). */
export interface Reading {
  readonly reviewer: string
  readonly labels: readonly string[]
}

/** A row with verdicts by two different reviewers: the first two, in the order they first gave one. */
export interface ReviewedPair {
  readonly state_hash: string
  readonly first: Reading
  readonly second: Reading
}

/** Agreement between people over the rows two of them reviewed. */
export interface PeopleAgreement {
  /** Rows with two reviewers' verdicts that both saved a label: what the figures count. */
  readonly rows: number
  /** Rows with two reviewers' verdicts where one or both saved none (needs_context, ambiguous). */
  readonly unlabelled: number
  /** Share of the rows whose two verdicts share a label: always beside κ. */
  readonly raw_agreement: number | null
  readonly kappa: number | null
  readonly kappa_interval: readonly [number, number] | null
  /** Why κ is missing; null when it is given. */
  readonly reason: string | null
}

/**
 * The rows of one question reviewed by two different people, from every standing verdict of each
 * row (retractions honoured, docs/review.md, The reviews file); each reviewer's latest standing
 * verdict is theirs. A row reviewed by more than two people gives one pair, its first two
 * reviewers, so rows stay independent.
 */
export function reviewedPairs(reviews: Reviews, judgment: string, question: string): ReviewedPair[] {
  const pairs: ReviewedPair[] = []
  for (const stack of reviews.values()) {
    const [first] = stack
    if (first === undefined || first.judgment !== judgment || first.question !== question) continue
    const people = byReviewer(stack)
    if (people.length < 2) continue
    const reading = (r: VerdictRecord): Reading => ({ reviewer: r.reviewer, labels: r.labels })
    pairs.push({ state_hash: first.state_hash, first: reading(people[0]), second: reading(people[1]) })
  }
  return pairs
}

/** Whether two readings agree: both saved a label, and they share one (a `both_ok` agrees with either label). */
export function agrees(pair: ReviewedPair): boolean {
  return pair.first.labels.some((l) => pair.second.labels.includes(l))
}

/** Whether both readings saved a label. */
export function labelled(pair: ReviewedPair): boolean {
  return pair.first.labels.length > 0 && pair.second.labels.length > 0
}

/** A pair as κ counts it: the shared label on both sides when they agree, else each side's first. */
export function labelPair(pair: ReviewedPair): LabelPair {
  const shared = pair.first.labels.find((l) => pair.second.labels.includes(l))
  return shared === undefined ? { a: pair.first.labels[0], b: pair.second.labels[0] } : { a: shared, b: shared }
}

/**
 * Raw agreement and Cohen's κ between people, each labelled pair one row of equal weight (a
 * simple random sample of rows, no finite population): κ's interval is the delta method's, which
 * here is the large-sample variance of Fleiss, Cohen and Everitt (kappa.ts).
 */
export function peopleAgreement(pairs: readonly ReviewedPair[]): PeopleAgreement {
  const counted = pairs.filter(labelled)
  const unlabelled = pairs.length - counted.length
  if (counted.length === 0) {
    return {
      rows: 0,
      unlabelled,
      raw_agreement: null,
      kappa: null,
      kappa_interval: null,
      reason: 'no row has verdicts with a label by two reviewers',
    }
  }
  const raw = counted.filter(agrees).length / counted.length
  const kappa = cohenKappa(simpleDesign(counted.map(labelPair)))
  if ('reason' in kappa)
    return {
      rows: counted.length,
      unlabelled,
      raw_agreement: raw,
      kappa: null,
      kappa_interval: null,
      reason: kappa.reason,
    }
  return {
    rows: counted.length,
    unlabelled,
    raw_agreement: raw,
    kappa: kappa.kappa,
    kappa_interval: kappa.interval,
    reason: null,
  }
}
