import type { AnswerStore } from './answer-store.ts'
import type { BatchStore } from './batch-store.ts'
import type { ForgetStore } from './forget-store.ts'
import type { JuryStore } from './jury-store.ts'
import type { KeptStore } from './kept-store.ts'
import type { LeaseStore } from './lease-store.ts'
import type { PaceStore } from './pace-store.ts'
import type { ReaskStore } from './reask-store.ts'
import type { RunStore } from './run-store.ts'

/**
 * The whole store: every narrow port over one file, and its closing. The composition root
 * (src/runtime.ts) opens and closes it, and the adapters implement it; a use case or a core
 * function declares the narrow ports it uses instead (docs/store.md).
 */
export interface Store
  extends AnswerStore,
    RunStore,
    KeptStore,
    PaceStore,
    ForgetStore,
    ReaskStore,
    LeaseStore,
    BatchStore,
    JuryStore {
  /**
   * The store's one staleness signal: read twice with no write committed in between, by this
   * process or another sharing the file, it is the same number; after any such write it differs
   * (it may differ without one). What was made from reads under one mark stands while the mark
   * does: every cache of the store checks it (docs/architecture.md, Caches).
   */
  writeMark(): number
  /** Releases the underlying resources. */
  close(): void
}

/** What a method of the store does: `read` leaves what the store holds as it was, `write` may change it. */
export type MethodKind = 'read' | 'write'

/** The methods of the store that read or write it: every one but close. */
export type StoreMethod = Exclude<keyof Store, 'close'>
