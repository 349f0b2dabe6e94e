import { randomUUID } from 'node:crypto'
import { constants, createWriteStream, lstatSync, realpathSync } from 'node:fs'
import { chmod, copyFile, link, open, rename, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

// Every file judge writes goes through here: written whole to a new file beside its target, fsync'd,
// then put in place in one step, so that a write that fails or is killed midway leaves the target as
// it was (docs/cli.md, Files judge writes). A failed write removes its temporary file.

// Errors of link(2) on a file system without hard links: the new file is copied into place instead.
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK'])

/** A file being written beside its target, put in place only by `place`. */
export interface PendingFile {
  /** Adds text to the file; a write error is held and thrown by `place`. */
  write(text: string): void
  /** Ends the file, fsyncs it and renames it over its target (through a symlink, over the file it names). */
  place(): Promise<void>
  /** Drops the file written so far; the target stays as it was. */
  discard(): Promise<void>
}

/** The temporary name of a new file beside `path`. */
function tempBeside(path: string): string {
  return `${path}.${randomUUID()}.tmp`
}

/** The file a path names, symlinks followed; the path itself when it names nothing yet (or a dangling symlink). */
function realTarget(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Starts a file that replaces `path` when placed: streamed to a temporary file beside it. */
export function openReplacement(path: string): PendingFile {
  const target = realTarget(path)
  const temp = tempBeside(target)
  const out = createWriteStream(temp, { flags: 'wx', flush: true })
  let failure: Error | null = null
  out.on('error', (error) => (failure ??= error))
  const closed = new Promise<void>((done) => out.once('close', done))
  return {
    write: (text) => void out.write(text),
    async place() {
      out.end()
      await closed
      try {
        if (failure) throw failure
        await moveInto(temp, target)
      } catch (error) {
        await rm(temp, { force: true })
        throw error
      }
    },
    async discard() {
      out.destroy()
      await closed
      await rm(temp, { force: true })
    },
  }
}

/** Writes `bytes` to a new file beside `path`, fsyncs it and renames it over `path`. */
export async function replaceFile(path: string, bytes: string | Buffer): Promise<void> {
  const target = realTarget(path)
  const temp = tempBeside(target)
  try {
    await writeSynced(temp, bytes)
    await moveInto(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Whether any entry has this name: a file, a folder, a symlink (a dangling one too). */
export function nameTaken(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined
}

/**
 * Writes `bytes` to a new file beside `path`, fsyncs it and links it in as `path`, which is never replaced: returns
 * false, writing nothing, when any entry (a dangling symlink too) already has that name.
 */
export async function createFile(path: string, bytes: string | Buffer): Promise<boolean> {
  const temp = tempBeside(path)
  try {
    await writeSynced(temp, bytes)
    if (!(await linkNew(temp, path))) return false
  } finally {
    await rm(temp, { force: true })
  }
  await syncFolder(dirname(path))
  return true
}

/**
 * Links the file `temp` in as `path`, or copies it there on a file system without hard links (`linkFile` failing with
 * EPERM, ENOTSUP, …); false when any entry has the name `path`.
 */
export async function linkNew(temp: string, path: string, linkFile: typeof link = link): Promise<boolean> {
  try {
    await linkFile(temp, path)
    return true
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code)
    if (code === 'EEXIST') return false
    if (!NO_LINKS.has(code)) throw error
  }
  try {
    await copyFile(temp, path, constants.COPYFILE_EXCL)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

async function writeSynced(temp: string, bytes: string | Buffer): Promise<void> {
  const handle = await open(temp, 'wx')
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Renames a whole, synced file over `target`, keeping the mode of a file there, and fsyncs the folder. */
async function moveInto(temp: string, target: string): Promise<void> {
  const mode = (await stat(target).catch(() => null))?.mode
  if (mode !== undefined) await chmod(temp, mode & 0o7777)
  await rename(temp, target)
  await syncFolder(dirname(target))
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
