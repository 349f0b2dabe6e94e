import type { StoredAnswer } from '../../ports/answer-store.ts'
import { juryVerdict } from '../jury/jury-answer.ts'
import { juryFit, saidOf, type ReviewedLabels } from '../jury/jury-fits.ts'
import { MissingKeyError } from '../../errors.ts'
import type { Spec } from '../types.ts'
import { readDistribution } from './answer.ts'
import { askMissing } from './ask.ts'
import { jurorEngineOf, seatedJurors, timestamp } from './deps.ts'
import type { Filled, JudgeDeps, Judging, JurorEngine, Lookup } from './deps.ts'
import type { Ledger, Tally } from './ledger.ts'

/**
 * Fills the answers a jury lacks for one state (`lookup` is the jury's look-up, under its model id): each juror's
 * answers are looked up under its own model and only what it lacks is asked, of its own engine, at its own price,
 * within the ledger's budget; then each question's jury answer is made from the jurors' labels with the jury's
 * current fit, and stored under the jury's id. A question no juror had to be asked for counts as from the store.
 */
export async function askJury(job: Judging, lookup: Lookup): Promise<Filled> {
  const { deps } = job
  const { spec, state, hash, missing } = lookup
  const seated = seatedJurors(spec, deps)
  const fingerprints = missing.map((q) => q.fingerprint)
  const scratch = seated.map((): Tally => ({ cached: 0, asked: 0, requests: 0, cost: 0, duplicates: 0 }))
  const asked = new Set<string>()
  const jurors = await Promise.all(
    seated.map(async (seat, i): Promise<ReadonlyMap<string, StoredAnswer>> => {
      const stored = deps.store.getAnswers(seat.model, hash, fingerprints)
      const lacking = missing.filter((q) => !stored.has(q.fingerprint))
      if (lacking.length === 0) return stored
      const asks = jurorEngineOf(deps, seat.juror)
      if (!asks.engine) throw new MissingKeyError(spec.name, asks.unset)
      const jurorJob = { ...job, deps: jurorDeps(deps, asks), ledger: scratchLedger(job.ledger, scratch[i]) }
      const filled: Filled = await askMissing(jurorJob, {
        spec,
        model: seat.model,
        state,
        hash,
        stored,
        missing: lacking,
      })
      for (const fp of filled.fresh) asked.add(fp)
      return filled.stored
    }),
  )
  const tally = job.ledger.tally(spec.name)
  tally.asked += asked.size
  tally.cached += missing.length - asked.size
  tally.requests += scratch.reduce((sum, s) => sum + s.requests, 0)
  // A juror whose engine spends nothing (simulated) counts what it would have cost only in a jury of such jurors.
  const free = seated.map((s) => jurorEngineOf(deps, s.juror).engine?.spendsNothing === true)
  const allFree = free.every(Boolean)
  tally.cost += scratch.reduce((sum, s, i) => sum + (free[i] && !allFree ? 0 : s.cost), 0)
  const reviewed = await reviewedLabels(job, spec)
  const askedAt = timestamp(deps.now())
  const given = missing.map((q): StoredAnswer => {
    const fit = juryFit({
      store: deps.store,
      jury: lookup.model,
      jurors: seated.map((s) => s.model),
      question: q,
      reviewed: reviewed.get(q.name) ?? NONE,
    })
    // Every juror has every missing question's answer now: asking stored each or failed.
    const verdict = juryVerdict(
      fit,
      saidOf(
        q,
        jurors.map((answers) => answers.get(q.fingerprint)!.label),
      ),
    )
    // A re-weighed answer keeps the judgment and question that first asked it, and so its place in the review's sample.
    const was = lookup.stored.get(q.fingerprint)
    return {
      model: lookup.model,
      fingerprint: q.fingerprint,
      stateHash: hash,
      judgment: was?.judgment ?? spec.name,
      question: was?.question ?? q.name,
      distribution: verdict.distribution,
      ...readDistribution(q, verdict.distribution),
      askedAt,
      reportedModel: lookup.model,
      optionMass: null,
      source: verdict.source,
      samples: null,
      dissent: verdict.dissent,
    }
  })
  const stored = new Map(lookup.stored)
  const write = job.reweigh ? reweighed(job, lookup, given) : deps.store.putAnswers(given, hash, state)
  for (const answer of write) stored.set(answer.fingerprint, answer)
  return { stored, fresh: asked }
}

/**
 * Puts a state's jury answers made again in place of those stored, leaving alone the ones that came out the same;
 * tells the judging operation how many changed, and of those how many changed label. Returns what the store holds.
 */
function reweighed(job: Judging, lookup: Lookup, given: readonly StoredAnswer[]): StoredAnswer[] {
  const changed = given.filter((a) => !sameVerdict(lookup.stored.get(a.fingerprint), a))
  const relabelled = changed.filter((a) => {
    const was = lookup.stored.get(a.fingerprint)
    return was !== undefined && was.label !== a.label
  })
  const replaced = changed.filter((a) => lookup.stored.has(a.fingerprint)).length
  job.onReweighed?.(lookup.spec.name, replaced, relabelled.length)
  return changed.length === 0 ? [] : job.deps.store.replaceAnswers(changed, lookup.hash, lookup.state)
}

/** Whether a stored jury answer says what a new one says: its label, probability, source and dissent. */
function sameVerdict(was: StoredAnswer | undefined, now: StoredAnswer): boolean {
  return was !== undefined && verdictOf(was) === verdictOf(now)
}

function verdictOf(a: StoredAnswer): string {
  return JSON.stringify([a.label, a.p, a.margin, a.source, a.dissent, a.distribution])
}

const NONE: ReadonlyMap<string, string> = new Map()

/** The judge deps that ask one juror: its engine, price and governor, over the same store and requests in flight. */
function jurorDeps(deps: JudgeDeps, asks: JurorEngine): JudgeDeps {
  const { engine, pricePerMtok, governor } = asks
  const { governor: _, ...rest } = deps
  return { ...rest, engine, pricePerMtok, ...(governor ? { governor } : {}) }
}

/** The ledger a juror's request is counted in: the judgment's budget, and a tally of its own summed after. */
function scratchLedger(ledger: Ledger, tally: Tally): Ledger {
  return { budget: (judgment) => ledger.budget(judgment), tally: () => tally }
}

// People's labels are read once per judging operation (its ledger) and judgment.
const readings = new WeakMap<Ledger, Map<Spec, Promise<ReviewedLabels>>>()

function reviewedLabels(job: Judging, spec: Spec): Promise<ReviewedLabels> {
  const read = job.deps.reviewedLabels
  if (!read) return Promise.resolve(NO_REVIEWS)
  let bySpec = readings.get(job.ledger)
  if (!bySpec) readings.set(job.ledger, (bySpec = new Map()))
  let labels = bySpec.get(spec)
  if (!labels) bySpec.set(spec, (labels = read(spec)))
  return labels
}

const NO_REVIEWS: ReviewedLabels = new Map()
