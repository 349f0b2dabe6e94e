import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadProject } from '../src/adapters/files/spec-files.ts'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { queueTarget, reviewQueue } from '../src/app/review.ts'
import { readConfig } from '../src/config.ts'
import { readDistribution } from '../src/core/judge/answer.ts'
import { shortHash } from '../src/core/hash.ts'
import { stateHash } from '../src/core/judge/state.ts'
import type { Card } from '../src/core/review/queue.ts'
import { checkVerdict } from '../src/core/review/verdict-check.ts'
import { labelUnderCheck } from '../src/core/review/verdicts.ts'
import type { Spec, State } from '../src/core/types.ts'
import { createRuntime } from '../src/runtime.ts'
import { fakeDistribution } from '../test/helpers/fake-engine.ts'
import { buildCachedStore } from './build-store.ts'
import { note } from './common.ts'
import { SPEC_YAML } from './generate.ts'

/** Verdicts per reviewer: ben reviews after ana, and is offered some of her rows for a second review. */
const REVIEWERS = [
  { name: 'ana', rows: 300 },
  { name: 'ben', rows: 150 },
] as const
/** Rows kept for replay (as `"log": true` keeps them), with a candidate's answers for each. */
export const KEPT = 20_000

/**
 * Reviews written as two people would work down the review queue of the bench store: every card
 * the queue offers them, in turn, through the same check as the review page; the true label is the
 * model's except for one row in seven (by hash), so that there is something to find.
 */
export async function writeReviews(dir: string, store: string, model: string): Promise<number> {
  const spec = loadProject(resolve(dir, 'spam.judge.yaml')).selected[0]
  rmSync(spec.reviews, { force: true })
  const runtime = createRuntime(readConfig({ JUDGE_STORE: store, ENGINE_MODEL: model }, dir))
  const target = queueTarget(loadProject(spec.file), null, 30)
  let second = Date.parse('2026-02-01T09:00:00.000Z')
  let written = 0
  try {
    for (const reviewer of REVIEWERS) {
      for (let done = 0; done < reviewer.rows; ) {
        const queue = await reviewQueue(runtime, { ...target, limit: 100, reviewedBy: reviewer.name })
        if (queue.offered.length === 0) break
        for (const card of queue.offered.slice(0, Math.min(50, reviewer.rows - done))) {
          const reviewedAt = new Date((second += 11_000)).toISOString().slice(0, 23)
          const record = checkVerdict(queue, {
            question: card.question,
            stateHash: card.stateHash,
            kind: card.kind,
            reviewer: reviewer.name,
            reviewedAt,
            ...verdictOf(spec, card),
          })
          await runtime.files.appendVerdict(spec, record)
          done++
          written++
        }
      }
    }
  } finally {
    runtime.close()
  }
  return written
}

function verdictOf(spec: Spec, card: Card): { verdict: string; label?: string } {
  const question = spec.questions.find((q) => q.name === card.question)!
  const model = readDistribution(question, fakeDistribution(question, card.state)).label
  const truth =
    parseInt(shortHash(`${card.stateHash}\0${card.question}`).slice(0, 8), 16) % 7 === 0
      ? question.labels.find((l) => l !== model)!
      : model
  if (card.kind === 'disagreement') return { verdict: card.modelLabel === truth ? 'model_right' : 'key_right' }
  return labelUnderCheck({ modelLabel: card.modelLabel, keyLabel: card.keyLabel }) === truth
    ? { verdict: 'confirmed' }
    : { verdict: 'labeled', label: truth }
}

/** The candidate `/compare` sets against the live spec: is_spam reworded, the other questions as they are. */
export function writeCandidate(dir: string): Spec {
  const folder = resolve(dir, 'candidates')
  mkdirSync(folder, { recursive: true })
  const yaml = SPEC_YAML.replace(
    /ask: Is this message unsolicited advertising or a scam\?/,
    'ask: Is this message spam, meaning advertising nobody asked for or a scam?',
  )
  if (yaml === SPEC_YAML) throw new Error('the candidate rewording no longer applies to the example spec')
  writeFileSync(resolve(folder, 'spam.judge.yaml'), `${yaml}unsure_below: 0.2\n`)
  return loadProject(resolve(folder, 'spam.judge.yaml')).selected[0]
}

/** Keeps the first KEPT states for replay, and stores the candidate's answers for them, as a replay would have. */
export function keepForCompare(
  file: string,
  live: Spec,
  candidate: Spec,
  model: string,
  states: readonly State[],
): void {
  const kept = states.slice(0, KEPT)
  const store = openSqliteStore(file)
  try {
    kept.forEach((state, i) =>
      store.keepRow(
        live.name,
        stateHash(state),
        state,
        new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString().slice(0, 23),
      ),
    )
  } finally {
    store.close()
  }
  note(`kept ${kept.length} rows; storing the candidate's answers for them`)
  buildCachedStore(file, candidate, model, kept)
}
