import { lstat, readlink, realpath, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** A file a command reads or owns, with what it is to the command, as a message names it ("the data file rows.csv"). */
export interface OwnedFile {
  readonly path: string
  readonly what: string
}

/** The store file and the files SQLite keeps beside it, named as `shown` writes the store's path. */
export function storeFiles(store: string, shown: string): OwnedFile[] {
  return [
    { path: store, what: `the store ${shown}` },
    { path: `${store}-wal`, what: `the store's write-ahead log ${shown}-wal` },
    { path: `${store}-shm`, what: `the store's shared-memory file ${shown}-shm` },
    { path: `${store}-journal`, what: `the store's rollback journal ${shown}-journal` },
  ]
}

/** Where a path leads and, when it names a file, which: for telling whether two paths are one file. */
interface Identity {
  readonly real: string
  readonly file: { readonly dev: number; readonly ino: number } | null
}

/**
 * The owned file that `target` is, through any symlink or hard link, or null: the same file (device and inode) when
 * both exist, else the same path once every symlink is followed, so that a file not yet made (a store's `-wal`) is
 * also found.
 */
export async function ownedFileAt(target: string, owned: readonly OwnedFile[]): Promise<OwnedFile | null> {
  const it = await identityOf(target)
  for (const file of owned) {
    const other = await identityOf(file.path)
    if (other.real === it.real) return file
    if (it.file && other.file && it.file.dev === other.file.dev && it.file.ino === other.file.ino) return file
  }
  return null
}

async function identityOf(path: string): Promise<Identity> {
  const found = await stat(path).catch(() => null)
  return { real: await followed(resolve(path)), file: found ? { dev: found.dev, ino: found.ino } : null }
}

/** The path with every symlink followed, as far as the entries exist: a dangling link leads to where it points. */
async function followed(path: string, depth = 0): Promise<string> {
  const real = await realpath(path).catch(() => null)
  if (real !== null) return real
  const entry = await lstat(path).catch(() => null)
  // A chain of links longer than the kernel follows (40) is a loop: it leads nowhere further.
  if (entry?.isSymbolicLink() && depth < 40) return followed(resolve(dirname(path), await readlink(path)), depth + 1)
  // The root always resolves: the walk up ends there at the latest.
  return join(await followed(dirname(path), depth), basename(path))
}
