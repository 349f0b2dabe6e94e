import type { JudgeDeps } from '../../src/core/judge/deps.ts'
import type { Engine } from '../../src/ports/engine.ts'
import type { Store } from '../../src/ports/store.ts'
import { createMemoryStore } from './memory-store.ts'

/** Judge dependencies over the memory store and the given engine (null: no key). */
export function deps(engine: Engine | null, store: Store = createMemoryStore()): JudgeDeps {
  return { store, engine, defaultModel: 'jev-test', pricePerMtok: 0.042, inflight: new Map(), now: () => new Date('2026-11-22T10:00:00.000Z') }
}
