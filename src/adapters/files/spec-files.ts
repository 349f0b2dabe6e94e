import { readdirSync, readFileSync, statSync } from 'node:fs'
import type { Stats } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { InputError, NotFoundError, SpecError } from '../../errors.ts'
import { resolveProject } from '../../core/spec/project-graph.ts'
import type { LoadedSpec } from '../../core/spec/project-graph.ts'
import { parseSpec, SPEC_SUFFIX } from '../../core/spec/spec-parse.ts'
import type { Project } from '../../core/types.ts'

/** Loads projects, re-reading only the spec files that changed since it last read them. */
export interface SpecCache {
  /** Loads the spec file or folder at `path`, as loadProject does. */
  load(path: string): Project
}

// Spec files are written by hand; anything this large is a mistake, not a spec.
const MAX_SPEC_BYTES = 1024 * 1024

const MISSING = ['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG']

interface Entry {
  readonly identity: string
  readonly loaded: LoadedSpec
}

/**
 * Loads the spec file or folder at `path`. Every spec of the folder is loaded so that chaining
 * resolves; `selected` is the one file, or every judgment of a folder.
 */
export function loadProject(path: string): Project {
  return createSpecCache().load(path)
}

/** Options of createSpecCache. */
export interface SpecCacheOptions {
  /** The clock that tells a folder changed too recently for its listing to be kept. */
  readonly now?: () => number
}

/**
 * A spec cache keyed by file identity (path, mtime, size, inode), for callers that load often.
 * A folder's list of spec files is kept by the folder's identity too, so that loading an unchanged
 * project costs a stat of the path, of its folder and of each spec file, and no listing.
 */
export function createSpecCache(options: SpecCacheOptions = {}): SpecCache {
  const { now = Date.now } = options
  const entries = new Map<string, Entry>()
  const listings = new Map<string, Listing>()
  const projects = new Map<string, Loaded>()
  return {
    load(path: string): Project {
      const target = resolve(path)
      const previous = projects.get(target)
      const { dir, files, selectedFile, stats } = locate(target, listings, now)
      for (const file of entries.keys()) {
        if (dirname(file) === dir && !files.includes(file)) entries.delete(file)
      }
      const loaded = files.map((file) => readSpec(entries, file, file === selectedFile ? stats : undefined))
      // The same spec objects resolve the same way: an unchanged project is not checked again.
      const same =
        previous && previous.loaded.length === loaded.length && previous.loaded.every((l, i) => l === loaded[i])
      const { specs, selected } = same ? previous.project : resolveProject(loaded, selectedFile)
      const project = { path: target, dir, specs, selected }
      projects.set(target, { loaded, project })
      return project
    },
  }
}

/** A project as last loaded, and the specs it was resolved from. */
interface Loaded {
  readonly loaded: readonly LoadedSpec[]
  readonly project: Project
}

interface Listing {
  readonly identity: string
  readonly files: string[]
}

// A folder changed this recently may change again within its clock tick without its times moving,
// so its listing is not kept (as git treats "racily clean" files).
const RACY_MS = 2000

function locate(
  target: string,
  listings: Map<string, Listing>,
  now: () => number,
): { dir: string; files: string[]; selectedFile: string | null; stats: Stats } {
  const stats = statOf(target)
  if (!stats) throw new NotFoundError(`no such file or folder: ${target}`)
  if (stats.isDirectory()) {
    const files = listed(target, stats, listings, now)
    if (files.length === 0) throw new InputError(`${target} holds no spec files (*.judge.yaml or *.judge.yml)`)
    return { dir: target, files, selectedFile: null, stats }
  }
  if (!stats.isFile() || !SPEC_SUFFIX.test(target)) {
    throw new InputError(`${target} is not a spec file (a spec file's name ends in .judge.yaml or .judge.yml)`)
  }
  const dir = dirname(target)
  const dirStats = statOf(dir)
  /* c8 ignore next -- the folder of a file just found was removed in between */
  if (!dirStats) throw new NotFoundError(`no such file or folder: ${target}`)
  return { dir, files: listed(dir, dirStats, listings, now), selectedFile: target, stats }
}

/** The spec files of a folder, listed again only when the folder changed (or changed too recently to tell). */
function listed(dir: string, stats: Stats, listings: Map<string, Listing>, now: () => number): string[] {
  const identity = `${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`
  const kept = listings.get(dir)
  if (kept?.identity === identity) return kept.files
  const files = specFilesIn(dir)
  if (now() - Math.max(stats.mtimeMs, stats.ctimeMs) > RACY_MS) listings.set(dir, { identity, files })
  else listings.delete(dir)
  return files
}

function specFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => SPEC_SUFFIX.test(name))
    .sort()
    .map((name) => join(dir, name))
    .filter((file) => statOf(file)?.isFile())
}

function statOf(path: string): Stats | null {
  if (path.includes('\0')) throw new InputError('a path must not contain a NUL byte')
  try {
    return statSync(path)
  } catch (error) {
    // A symbolic link in a loop or a name too long for the system names nothing that exists.
    if (MISSING.includes(String((error as NodeJS.ErrnoException).code))) return null
    /* c8 ignore next 2 -- other failures, such as a denied permission, stay as they are; tests run with full access */
    throw error
  }
}

// Stat before reading: a file written meanwhile then differs from its entry and is read again.
function readSpec(entries: Map<string, Entry>, file: string, known?: Stats): LoadedSpec {
  const stats = known ?? statOf(file)
  if (!stats) throw new NotFoundError(`no such file or folder: ${file}`)
  const identity = `${stats.mtimeMs}:${stats.size}:${stats.ino}`
  const cached = entries.get(file)
  if (cached?.identity === identity) return cached.loaded
  const loaded = parseFile(file, stats.size)
  entries.set(file, { identity, loaded })
  return loaded
}

function parseFile(file: string, size: number): LoadedSpec {
  if (size > MAX_SPEC_BYTES) return { file, error: new SpecError(file, '', 'a spec file must be under 1 MiB') }
  const text = readFileSync(file, 'utf8')
  try {
    return { file, spec: parseSpec(text, file) }
  } catch (error) {
    if (error instanceof SpecError) return { file, error }
    /* c8 ignore next 2 -- parseSpec throws nothing else but a fault in the code, which must stay loud */
    throw error
  }
}
