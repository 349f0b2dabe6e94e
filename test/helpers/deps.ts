import type { Engine } from '../../src/ports/engine.ts'
import { askJury } from '../../src/core/judge/ask-jury.ts'
import type { Store } from '../../src/ports/store.ts'
import { createMemoryStore } from './memory-store.ts'
import type { App, DepsWith } from '../../src/app/app.ts'
import { createKeyedLock } from '../../src/app/keyed-lock.ts'
import type { Files } from '../../src/ports/files.ts'
import { createMemoryFileLock } from './memory-file-lock.ts'

/** Judge dependencies over the memory store and the given engine (null: no key). */
export function deps(engine: Engine | null, store: Store = createMemoryStore()): DepsWith<Store> {
  return {
    store,
    engine,
    defaultModel: 'jev-test',
    pricePerMtok: 0.042,
    inflight: new Map(),
    now: () => new Date('2026-11-22T10:00:00.000Z'),
    askJury,
  }
}

/** An app over one judge-dependencies object for every project (one store), with the given files port. */
export function app(d: DepsWith<Store>, files: Partial<Files> = {}): App {
  return {
    depsFor: () => d,
    existingStore: () => d.store,
    files: { ...noFiles, ...files },
    locks: createKeyedLock(),
    fileLocks: createMemoryFileLock(),
    now: d.now,
  }
}

const noFiles: Files = {
  rows: async function* () {},
  key: async () => new Map(),
  verdicts: async () => new Map(),
  reviews: async () => new Map(),
  comparisons: async () => new Map(),
  appendComparison: async () => {},
  appendVerdict: async () => {},
  appendRetraction: async () => {},
  forgetReviewStates: async () => new Map(),
  gitSha: async () => 'abc1234',
  contentHash: async () => 'c0ffee0123456789',
}

/** A fake engine per juror engine kind of a jury, and the judge deps that ask them (test/helpers/specs.ts, juryOfThree). */
export interface JurorFakes {
  readonly deps: DepsWith<Store>
  /** The engine of each kind a juror names; `own` is the configured one. */
  readonly engines: Readonly<Record<'own' | 'openai' | 'anthropic', Engine>>
}

/**
 * Judge deps whose configured engine is `own` and whose jurors on openai and anthropic are asked by the engines given,
 * each at a price of its own (openai 1 USD, anthropic 2 USD per million tokens).
 */
export function jurorDeps(
  engines: JurorFakes['engines'],
  store: Store = createMemoryStore(),
  over: Partial<DepsWith<Store>> = {},
): DepsWith<Store> {
  const prices = { openai: 1, anthropic: 2 }
  return {
    ...deps(engines.own, store),
    jurorEngine: (juror) =>
      juror.engine === 'openai' || juror.engine === 'anthropic'
        ? { engine: engines[juror.engine], pricePerMtok: prices[juror.engine] }
        : { engine: engines.own, pricePerMtok: 0.042 },
    ...over,
  }
}
