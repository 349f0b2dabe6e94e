import type { JudgeDeps } from '../core/judge/deps.ts'
import type { Project } from '../core/types.ts'
import type { FileLock } from '../ports/file-lock.ts'
import type { Files } from '../ports/files.ts'
import type { Store } from '../ports/store.ts'
import type { KeyedLock } from './keyed-lock.ts'

/**
 * Judge dependencies whose store is also `S`: what a use case declares it needs of the store
 * beyond judging (answers and spend), by the narrow ports it uses, such as `DepsWith<RunStore>`.
 */
export type DepsWith<S> = JudgeDeps & { readonly store: S }

/**
 * What every use case works with: the store and engine of a project's folder, the files port and
 * the clock. The CLI, the server and the library each make one (src/runtime.ts) and pass it in.
 */
export interface App {
  /** The judge dependencies (store, engine, settings) for a project's folder, with its whole store; opens it. */
  depsFor(project: Project): DepsWith<Store>
  /** The store of a project's folder when it exists, else null: reading creates nothing. */
  existingStore(project: Project): Store | null
  readonly files: Files
  /** Serializes work per key within this process, such as a verdict's check against the queue and its append. */
  readonly locks: KeyedLock
  /** Serializes work per file across every process sharing it (two servers, a server's workers, a script). */
  readonly fileLocks: FileLock
  readonly now: () => Date
}
