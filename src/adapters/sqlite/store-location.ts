import { accessSync, constants, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/** Where a store lives inside a project: `.judge/store.sqlite` of some folder. */
export const STORE_PATH = join('.judge', 'store.sqlite')

/**
 * The store file for the specs in `specDir`: `JUDGE_STORE` when set (relative to the working
 * folder); else the nearest `.judge/store.sqlite` in `specDir` or a folder above it; else
 * `<specDir>/.judge/store.sqlite`, which the store creates when it opens. Creates nothing itself.
 */
export function findStoreFile(specDir: string, env: { readonly JUDGE_STORE?: string }): string {
  if (env.JUDGE_STORE) return resolve(env.JUDGE_STORE)
  const start = resolve(specDir)
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, STORE_PATH)
    if (isFile(file)) return file
    // dirname of a root is the root itself: the walk has nowhere further up to go.
    if (dirname(dir) === dir) return join(start, STORE_PATH)
  }
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false
}

/**
 * Why the store file could not be written, or null when it can: the file and its folder when it
 * exists (SQLite writes its journal beside it), else the nearest folder above it that exists (the
 * store makes the folders below). Creates and opens nothing.
 */
export function storeWriteProblem(file: string): string | null {
  const found = statSync(file, { throwIfNoEntry: false })
  if (found) return found.isFile() ? (writeProblem(file) ?? writeProblem(dirname(file))) : `${file} is not a file`
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const folder = statSync(dir, { throwIfNoEntry: false })
    if (folder) return folder.isDirectory() ? writeProblem(dir) : `${dir} is not a folder`
  }
}

function writeProblem(path: string): string | null {
  try {
    accessSync(path, constants.W_OK)
    return null
  } catch (error) {
    return `${path} is not writable (${(error as NodeJS.ErrnoException).code ?? 'denied'})`
  }
}
