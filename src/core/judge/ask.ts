import { EngineError, MissingKeyError } from '../../errors.ts'
import type { Engine, EngineEstimate, EngineRequest, EngineResult } from '../../ports/engine.ts'
import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Question, Spec } from '../types.ts'
import { readDistribution } from './answer.ts'
import { commitCost, estimateStateTokens, tokenCost } from './cost.ts'
import { timestamp, type Asked, type Filled, type JudgeDeps, type Judging, type Lookup } from './deps.ts'

export type { Filled, Lookup } from './deps.ts'

/**
 * Asks the engine the questions the store lacks, in one request, within the ledger's budget. An
 * identical request already in flight for the same store is joined instead of asked again.
 */
export async function askMissing(job: Judging, lookup: Lookup): Promise<Filled> {
  const tally = job.ledger.tally(lookup.spec.name)
  const stored = new Map(lookup.stored)
  const fresh = new Set<string>()
  const { asked, joined } = askOnce(job, lookup)
  const got = await asked
  for (const [fp, answer] of got.answers) {
    stored.set(fp, answer)
    if (!joined) fresh.add(fp)
  }
  if (joined) tally.cached += lookup.missing.length
  else
    Object.assign(tally, {
      asked: tally.asked + lookup.missing.length,
      requests: tally.requests + got.requests,
      cost: tally.cost + got.cost,
    })
  return { stored, fresh }
}

/** What asking a request is expected to take: the engine's own estimate, else System One's fit and one request. */
export function estimateOf(engine: Engine | null, request: EngineRequest): EngineEstimate {
  return (
    engine?.estimate?.(request) ?? {
      inputTokens: estimateStateTokens(request.state, request.questions.length),
      requests: 1,
    }
  )
}

function askOnce(job: Judging, lookup: Lookup): { asked: Promise<Asked>; joined: boolean } {
  const { deps, ledger } = job
  const { spec, model, hash, missing } = lookup
  const key = `${model}\0${hash}\0${missing.map((q) => q.fingerprint).join(',')}`
  const pending = deps.inflight.get(key)
  if (pending) return { asked: pending, joined: true }
  if (!deps.engine) throw new MissingKeyError(spec.name)
  tellEngine(deps, model, spec.questions)
  const estimate = estimateOf(deps.engine, requestOf(lookup))
  const cost = tokenCost(estimate.inputTokens, deps.pricePerMtok)
  // An engine that spends nothing is held by no cap; what it would have cost is counted apart from the spend.
  if (!deps.engine.spendsNothing) {
    job.spend?.check(cost)
    commitCost(ledger.budget(spec.name), spec.name, missing.length, estimate.requests, cost)
  }
  const asked = askAndStore(job, deps.engine, lookup)
  deps.inflight.set(key, asked)
  const forget = () => deps.inflight.delete(key)
  asked.then(forget, forget)
  return { asked, joined: false }
}

// The models whose answers' sources were read, per engine and store: each once per process.
const told = new WeakMap<Engine, WeakMap<object, Set<string>>>()

/**
 * Tells an engine that learns which models send no log probabilities (`knownWithout`) what the store knows of `model`,
 * before its first estimate: its stored answers to `questions` hold sampled ones (`samples`) and no `logprobs` one.
 * Read once per engine, store and model; an engine that does not learn it reads nothing.
 */
export function tellEngine(deps: Pick<JudgeDeps, 'store' | 'engine'>, model: string, questions: readonly Question[]) {
  if (!deps.engine?.knownWithout) return
  const byStore = told.get(deps.engine) ?? told.set(deps.engine, new WeakMap()).get(deps.engine)!
  const models = byStore.get(deps.store) ?? byStore.set(deps.store, new Set()).get(deps.store)!
  if (models.has(model)) return
  models.add(model)
  const counts = questions.map((q) => deps.store.countSources(model, q.fingerprint))
  if (counts.some((c) => c.samples) && !counts.some((c) => c.logprobs)) deps.engine.knownWithout(model)
}

/** The engine request for a look-up's missing questions, with the spec's `samples:` when it sets one. */
function requestOf(lookup: Lookup): EngineRequest {
  const { spec, model, state, missing } = lookup
  return { model, state, questions: missing, ...samplesOf(spec) }
}

/** A spec's `samples:` as an engine request carries it: absent when the spec leaves k to the engine's setting. */
export function samplesOf(spec: Pick<Spec, 'samples'>): Pick<EngineRequest, 'samples'> {
  return spec.samples === null ? {} : { samples: spec.samples }
}

async function askAndStore(job: Judging, engine: Engine, lookup: Lookup): Promise<Asked> {
  const { deps } = job
  const { spec, model, state, hash, missing } = lookup
  const request = requestOf(lookup)
  const result = deps.governor
    ? await deps.governor.ask(engine, request, job.patience ?? 'request', job.signal)
    : await engine.ask(request, job.signal)
  const given = answersToStore(spec, { model, hash, questions: missing }, result, timestamp(deps.now()))
  // The store's answers, not the engine's: where another process stored a key first, its answer is
  // the one every process serves.
  const kept = deps.store.putAnswers(given, hash, state)
  const answers = new Map(kept.map((a) => [a.fingerprint, a]))
  const cost = tokenCost(result.inputTokens, deps.pricePerMtok)
  const requests = result.requests ?? 1
  job.spend?.record(cost, requests, engine.spendsNothing === true)
  return { answers, cost, requests }
}

/**
 * The answers to store from an engine result for one judgment's questions about one state: the
 * same for an answer asked on its own and one read from a batch's output.
 */
export function answersToStore(
  spec: Spec,
  asked: { readonly model: string; readonly hash: string; readonly questions: readonly Question[] },
  result: EngineResult,
  askedAt: string,
): StoredAnswer[] {
  return asked.questions.map((q): StoredAnswer => {
    const distribution = distributionFor(result, q, spec)
    const { label, p, margin } = readDistribution(q, distribution)
    const facts = result.facts?.[q.name]
    return {
      model: asked.model,
      fingerprint: q.fingerprint,
      stateHash: asked.hash,
      judgment: spec.name,
      question: q.name,
      distribution,
      label,
      p,
      margin,
      askedAt,
      reportedModel: result.model,
      optionMass: facts?.optionMass ?? null,
      source: facts?.source ?? 'distribution',
      samples: facts?.samples ?? null,
    }
  })
}

/** A question's distribution in an engine result; an EngineError when the engine gave none. */
export function distributionFor(result: EngineResult, q: Question, spec: Spec) {
  const d = result.distributions[q.name]
  if (!d || q.labels.every((l) => typeof d[l] !== 'number')) {
    throw new EngineError(`judgment ${spec.name}: the engine gave no answer to question ${q.name}`, null)
  }
  return d
}
