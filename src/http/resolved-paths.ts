import type { SpecCache } from '../adapters/files/spec-files.ts'
import type { Project } from '../core/types.ts'
import { loadUnder } from './paths.ts'

/** How long a resolved request path is trusted before the disk is looked at again, in milliseconds. */
export const REVALIDATE_MS = 1000

/** A request path as last checked against the disk: the project it names and where its store is. */
export interface Resolved {
  /** The path string as the request gave it. */
  readonly key: string
  readonly project: Project
  readonly storeFile: string
  /** The store's write mark when checked: a write since makes what was computed from it stale. */
  readonly mark: number
  /** When the disk last agreed with this resolution (milliseconds, the server's clock). */
  checkedAt: number
  /** False once a later check found the project or its store changed: what was computed from it is stale. */
  current: boolean
}

/**
 * The server's one revalidation point. Everything a request path stands for on disk (its
 * confinement to the served folder, the spec files beside it and the files they name, the specs'
 * contents, the store's location, the answers deleted from the store) is checked at most once per
 * REVALIDATE_MS per path string; in between, a request costs a Map lookup and no system call. An
 * edited spec, a planted symlink, a new store or a pruned cache is therefore seen within that time.
 */
export interface ResolvedPaths {
  /** The resolution of a request's `path` (or `shadow`): the cached one while fresh, else checked anew. */
  load(raw: unknown, field: string, now: number): Resolved
  /** Whether `resolved` still stands without a look at the disk, so that a reply made from it may be reused. */
  fresh(resolved: Resolved, now: number): boolean
}

/** How resolved-paths finds the disk: the spec cache, the served folder, and the store lookup. */
export interface ResolvedPathsOptions {
  readonly root: string
  readonly specs: SpecCache
  /** The store file serving the specs of a folder (runtime.storeFileFor). */
  readonly storeFileFor: (dir: string) => string
  /** The write mark of a project's store (0 without one): read at each check, like the disk. */
  readonly markOf?: (project: Project) => number
  /** Paths remembered at most; the oldest is dropped beyond it. */
  readonly max?: number
  /** Told when a resolution stops being current (its disk or store changed), so that what was made from it can go. */
  readonly onStale?: () => void
}

/** Creates the revalidation point of one server. */
export function createResolvedPaths(options: ResolvedPathsOptions): ResolvedPaths {
  const { root, specs, storeFileFor, markOf = () => 0, max = 1000, onStale = () => {} } = options
  const entries = new Map<string, Resolved>()
  const fresh = (resolved: Resolved, now: number) => resolved.current && now - resolved.checkedAt < REVALIDATE_MS
  return {
    fresh,
    load(raw, field, now) {
      const known = typeof raw === 'string' ? entries.get(raw) : undefined
      if (known && fresh(known, now)) return known
      let project: Project
      try {
        project = loadUnder(specs, root, raw, field)
      } catch (error) {
        if (known) retire(entries, known, onStale)
        throw error
      }
      const storeFile = storeFileFor(project.dir)
      const mark = markOf(project)
      // Unchanged on disk and in the store: the same resolution is trusted for another while, and so is what was made
      // from it.
      if (known && sameProject(known.project, project) && known.storeFile === storeFile && known.mark === mark) {
        known.checkedAt = now
        return known
      }
      // loadUnder refuses anything but a string.
      const resolved: Resolved = { key: raw as string, project, storeFile, mark, checkedAt: now, current: true }
      if (known) retire(entries, known, onStale)
      else if (entries.size >= max) retire(entries, entries.values().next().value!, onStale)
      entries.set(resolved.key, resolved)
      return resolved
    },
  }
}

function retire(entries: Map<string, Resolved>, resolved: Resolved, onStale: () => void): void {
  resolved.current = false
  entries.delete(resolved.key)
  onStale()
}

// The spec cache hands back the same judgments for files it found unchanged.
function sameProject(a: Project, b: Project): boolean {
  return a.path === b.path && a.specs === b.specs && a.selected === b.selected
}
