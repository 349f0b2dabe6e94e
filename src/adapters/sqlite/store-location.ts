import { statSync } from 'node:fs'
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
