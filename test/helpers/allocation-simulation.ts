import { strataState } from '../../src/core/allocation/neyman.ts'
import type { AllocationRule } from '../../src/core/spec/allocation-rule.ts'
import { spotCheckPlan } from '../../src/core/allocation/spot-checks.ts'
import { scoreQuestion } from '../../src/core/review/accuracy.ts'
import { questionSample, knownRows, type QuestionSample } from '../../src/core/review/sample-design.ts'
import { estimateAccuracy, type AccuracyEstimate } from '../../src/core/review/estimate.ts'
import { buildQueue, PAGE_SIZE, type Card, type Queue } from '../../src/core/review/queue.ts'
import { STRATA, type Stratum } from '../../src/core/review/strata.ts'
import { checkVerdict } from '../../src/core/review/verdict-check.ts'
import { verdictKey, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import { firstOfShuffle, type Population, type SimRow } from './audit-simulation.ts'

// A simulated audit of one question under a queue allocation: a fresh random rank order per
// stratum, the queue rebuilt by the real builder after every verdict (as the review page is after
// each POST), spot checks as deep as the real allocation plan says, verdicts through the real
// verdict check, and the real estimator at the end.

/** How the simulated reviewer takes the queue. */
export type Pace = 'in order' | 'page shuffled'

/** One audit's setting. */
export interface AllocationAudit {
  readonly rule: AllocationRule
  readonly audit: number
  readonly reviews: number
  readonly pace: Pace
}

/** What one audit gave: the estimate, and the verdicts refused because the queue had moved on. */
export interface AllocationOutcome {
  readonly estimate: AccuracyEstimate
  readonly refused: number
  /** Rows of each stratum in the sample at the end. */
  readonly sampled: Readonly<Record<Stratum, number>>
}

const rowIndex = (stateHash: string) => Number.parseInt(stateHash, 16)

/** Runs one audit of the population's first question. */
export function allocationAudit(pop: Population, setting: AllocationAudit, random: () => number): AllocationOutcome {
  const question = pop.spec.questions[0]
  const rows = pop.rows.get(question.name)!
  const window = setting.reviews + setting.audit + PAGE_SIZE
  const ranked = Object.fromEntries(
    STRATA.map((s) => [s, firstOfShuffle(pop.byStratum.get(question.name)![s], window, random).map((r) => r.answer)]),
  ) as Record<Stratum, StoredAnswer[]>
  const sizes = Object.fromEntries(STRATA.map((s) => [s, pop.byStratum.get(question.name)![s].length])) as Record<
    Stratum,
    number
  >
  const verdicts = new Map<string, VerdictRecord>()
  const auditNow = (): QuestionSample => {
    const answers = new Map([...verdicts.values()].map((v) => [v.state_hash, rows[rowIndex(v.state_hash)].answer]))
    const known = knownRows({ judgment: pop.spec.name, question, key: new Map(), randomKey: false, verdicts, answers })
    return questionSample({
      question,
      unsureBelow: pop.spec.unsureBelow,
      strata: {
        split: { size: sizes.split, rows: ranked.split },
        unsure: { size: sizes.unsure, rows: ranked.unsure },
        confident: { size: sizes.confident, rows: ranked.confident },
      },
      known,
    })
  }
  const queueNow = (): Queue => {
    const reviewed = (hash: string) => verdicts.has(verdictKey(pop.spec.name, question.name, hash))
    const depth =
      setting.rule === 'fixed'
        ? setting.audit
        : spotCheckPlan({
            spotChecks: setting.audit,
            limit: PAGE_SIZE,
            strata: strataState(auditNow()),
            confident: ranked.confident.map((a) => a.stateHash),
            reviewed,
          }).depth
    // The reviewed prefix of the split and unsure orders and a page past it are all a queue page can reach.
    const reach = (rows: readonly StoredAnswer[]) => {
      let prefix = 0
      while (prefix < rows.length && reviewed(rows[prefix].stateHash)) prefix += 1
      return { rows: rows.slice(0, prefix + PAGE_SIZE) }
    }
    const strata = {
      confident: { rows: ranked.confident.slice(0, depth) },
      split: reach(ranked.split),
      unsure: reach(ranked.unsure),
    }
    return buildQueue({
      spec: pop.spec,
      answers: [{ question, keyed: [], strata, spotChecks: depth }],
      key: new Map(),
      verdicts,
      states: pop.states,
      spotChecks: setting.audit,
      limit: PAGE_SIZE,
    })
  }
  let refused = 0
  let page: Card[] = []
  // The queue as it stands: built again after each verdict, as the page is after each POST.
  let queue = queueNow()
  while (verdicts.size < setting.reviews) {
    if (page.length === 0) {
      if (queue.cards.length === 0) break
      page = setting.pace === 'in order' ? [queue.cards[0]] : firstOfShuffle(queue.cards, queue.cards.length, random)
    }
    const card = page.shift()!
    try {
      const record = checkVerdict(queue, {
        question: card.question,
        stateHash: card.stateHash,
        kind: card.kind,
        ...verdictFor(card, rows[rowIndex(card.stateHash)]),
        reviewer: 'sim',
        reviewedAt: '2026-01-01T00:00:00.000',
      })
      verdicts.set(verdictKey(card.judgment, card.question, card.stateHash), record)
      queue = queueNow()
    } catch {
      refused += 1
    }
  }
  const audit = auditNow()
  const current = new Map([...verdicts.values()].map((v) => [v.state_hash, rows[rowIndex(v.state_hash)].model]))
  const naive = scoreQuestion({ judgment: pop.spec.name, question, key: new Map(), verdicts, current })
  return {
    estimate: estimateAccuracy(audit, naive),
    refused,
    sampled: Object.fromEntries(STRATA.map((s) => [s, audit.strata[s].sampled])) as Record<Stratum, number>,
  }
}

function verdictFor(card: Card, row: SimRow): { verdict: string; label?: string } {
  if (row.truth === null) return { verdict: 'ambiguous' }
  return row.truth === card.modelLabel ? { verdict: 'confirmed' } : { verdict: 'labeled', label: row.truth }
}
