import { stateHash } from '../../src/core/judge/state.ts'
import { verdictKey, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Juror, Project, Question, Spec } from '../../src/core/types.ts'
import type { Engine } from '../../src/ports/engine.ts'
import type { Store } from '../../src/ports/store.ts'
import { deps } from './deps.ts'
import { createMemoryStore } from './memory-store.ts'
import { spec, SPAM_YAML } from './specs.ts'

/** Three jurors: a and c on the configured engine, b on `openai`. */
export const JURORS: Juror[] = [
  { model: 'a', engine: null },
  { model: 'b', engine: 'openai' },
  { model: 'c', engine: null },
]

/** The spam judgment (SPAM_YAML, /specs/spam.judge.yaml) with the three jurors. */
export const jurySpec: Spec = { ...spec(SPAM_YAML), jurors: JURORS }

/** The jury spec as a project of its own. */
export const juryProject: Project = { path: '/specs', dir: '/specs', specs: [jurySpec], selected: [jurySpec] }

/** Juror b's engine: answers under `oa-<model>`, a request of 1,000 tokens; asking fails. */
export const openaiEngine: Engine = {
  defaultModel: 'b',
  modelId: (model) => `oa-${model}`,
  ask: async () => {
    throw new Error('nothing is asked')
  },
  estimate: () => ({ inputTokens: 1000, requests: 1 }),
}

/** The id the jury's answers are kept under. */
export const JURY = 'jury:a+oa-b+c'

/** The reviewed messages m0…m10. */
export const JURY_MESSAGES = Array.from({ length: 11 }, (_, i) => `m${i}`)

/**
 * The rows each model is right on (says `yes`, people's label) among m0…m10: the jury on m0…m7, a on m0…m8, b on
 * m0…m5 and m8, c on m0…m4; c never answered m10, so the compared rows are m0…m9.
 */
export const RIGHT: Readonly<Record<string, readonly number[]>> = {
  [JURY]: [0, 1, 2, 3, 4, 5, 6, 7, 10],
  a: [0, 1, 2, 3, 4, 5, 6, 7, 8, 10],
  'oa-b': [0, 1, 2, 3, 4, 5, 8, 10],
  c: [0, 1, 2, 3, 4],
}

/** Stores one answer of a model to a question about a message. */
export function putLabel(store: Store, model: string, question: Question, message: string, label: string): void {
  const hash = stateHash({ message })
  const other = question.labels.find((l) => l !== label)!
  store.putAnswers(
    [
      {
        model,
        fingerprint: question.fingerprint,
        stateHash: hash,
        judgment: 'spam',
        question: question.name,
        distribution: { [label]: 0.9, [other]: 0.1 },
        label,
        p: 0.9,
        margin: 0.8,
        askedAt: '2026-01-01T00:00:00.000',
      },
    ],
    hash,
    { message },
  )
}

/** A memory store with every model's answers (RIGHT) to is_spam, and to the other questions their first label. */
export function juryStore(): Store {
  const store = createMemoryStore()
  const [isSpam, ...others] = jurySpec.questions
  for (const [model, rows] of Object.entries(RIGHT))
    JURY_MESSAGES.forEach((m, i) => {
      if (model === 'c' && i === 10) return
      putLabel(store, model, isSpam, m, rows.includes(i) ? 'yes' : 'no')
      for (const q of others) putLabel(store, model, q, m, q.labels[0])
    })
  return store
}

/** A verdict on a message's is_spam saving `labels` (none: ambiguous). */
export function juryVerdict(message: string, labels: string[]): VerdictRecord {
  return {
    reviewed_at: '2026-01-01T00:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: stateHash({ message }),
    kind: 'spot_check',
    verdict: labels.length > 0 ? 'labeled' : 'ambiguous',
    labels,
    model_label: 'yes',
    key_label: null,
    state: { message },
    stratum: null,
    rank: null,
  }
}

/** People's verdicts: every message spam; m11 ambiguous (no label, not compared). */
export const JURY_VERDICTS: VerdictRecord[] = [
  ...JURY_MESSAGES.map((m) => juryVerdict(m, ['yes'])),
  juryVerdict('m11', []),
]

/** The verdicts keyed as the reviews file reads them. */
export const juryVerdicts = () =>
  new Map(JURY_VERDICTS.map((v) => [verdictKey(v.judgment, v.question, v.state_hash), v]))

/** Deps over the store with no configured engine key, juror b's engine `openaiEngine` at $3 per million tokens. */
export const juryDeps = (store: Store) => ({
  ...deps(null, store),
  jurorEngine: (juror: Juror) => {
    if (juror.engine !== 'openai') throw new Error(`no engine ${juror.engine} here`)
    return { engine: openaiEngine, pricePerMtok: 3 }
  },
})

/** The estimated cost of one question about a row m0…m10 at the default estimate: {"message":"m0"}, 16 characters, $0.042. */
export const DEFAULT_QUESTION_USD = ((275 + 0.19 * 16 + 21) * 0.042) / 1e6
