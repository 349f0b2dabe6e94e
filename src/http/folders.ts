import { readdirSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { SPEC_SUFFIX } from '../core/spec/spec-parse.ts'

/** How far the home page looks for folders of specs. */
export interface FolderLimits {
  /** Folder levels below the root that are searched. */
  readonly depth: number
  /** Folders listed at most. */
  readonly folders: number
}

/** Deep enough for any sensible layout, small enough that a stray huge tree cannot stall a page. */
export const FOLDER_LIMITS: FolderLimits = { depth: 8, folders: 500 }

/**
 * Every folder under `root` that holds spec files, as paths relative to it ('.' for the root),
 * sorted. Dot-folders and node_modules are skipped, and symlinked folders are not followed, so
 * the walk stays inside the root and cannot loop.
 */
export function specFolders(root: string, limits: FolderLimits = FOLDER_LIMITS): string[] {
  const found: string[] = []
  const pending: [string, number][] = [['.', 0]]
  while (pending.length > 0 && found.length < limits.folders) {
    const [rel, depth] = pending.shift()!
    const entries = entriesOf(join(root, rel))
    if (entries.some((e) => !e.isDirectory() && SPEC_SUFFIX.test(e.name))) found.push(rel)
    if (depth >= limits.depth) continue
    for (const e of entries) {
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') {
        pending.push([rel === '.' ? e.name : `${rel}/${e.name}`, depth + 1])
      }
    }
  }
  return found.sort((a, b) => (a === '.' ? -1 : b === '.' ? 1 : a < b ? -1 : a > b ? 1 : 0))
}

/** Spec files served: those of every folder specFolders finds, as paths relative to `root`, at most `max`. */
export function specFiles(root: string, max = 200): string[] {
  return specFolders(root)
    .flatMap((folder) =>
      entriesOf(join(root, folder))
        .filter((e) => !e.isDirectory() && SPEC_SUFFIX.test(e.name))
        .map((e) => (folder === '.' ? e.name : `${folder}/${e.name}`)),
    )
    .slice(0, max)
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))
  } catch {
    // A folder that cannot be read (permissions, removed meanwhile) holds nothing to list.
    return []
  }
}
