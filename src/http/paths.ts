import { readdirSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { SpecCache } from '../adapters/files/spec-files.ts'
import { SPEC_SUFFIX } from '../core/spec/spec-parse.ts'
import type { Project } from '../core/types.ts'
import { ForbiddenError, JudgeError, NotFoundError, UsageError } from '../errors.ts'

/**
 * Resolves a request's `path` (or `shadow`) under the served folder and returns the real path of
 * what it names. Missing or not a string: 400. A NUL byte, an absolute path, a `..` segment, or a
 * symlink whose target lies outside the folder: 403. Nothing there: 404.
 */
export function resolveUnder(root: string, raw: unknown, field = 'path'): string {
  return confine(root, raw, field).real
}

function confine(root: string, raw: unknown, field: string): { realRoot: string; real: string } {
  if (raw === undefined || raw === null || raw === '') {
    throw new UsageError(`${field} is required: a spec file or folder, relative to the served folder`)
  }
  if (typeof raw !== 'string') throw new UsageError(`${field} must be a string`)
  if (raw.includes('\0')) throw new ForbiddenError(`${field} must not contain a NUL byte`)
  // Backslashes and drive letters count too, so that no spelling of an escape gets through.
  if (isAbsolute(raw) || /^[\\/]|^[a-zA-Z]:/.test(raw)) throw new ForbiddenError(`${field} must be relative to the served folder, not absolute`)
  if (raw.split(/[\\/]/).includes('..')) throw new ForbiddenError(`${field} must not contain a .. segment`)
  const realRoot = realOrNull(root)
  if (realRoot === null) throw new NotFoundError('the served folder (JUDGE_PROJECTS) does not exist')
  const real = realOrNull(resolve(realRoot, raw))
  if (real === null) throw new NotFoundError(`${field} ${raw} does not exist`)
  if (!isWithin(realRoot, real)) throw new ForbiddenError(`${field} ${raw} leads outside the served folder`)
  return { realRoot, real }
}

/**
 * Paths found confined within the last `ttlMs`, so that a busy server does not resolve the same
 * path on every request. Only a path that passed every check is kept, and only briefly: a symlink
 * planted in the served folder is refused at most `ttlMs` later.
 */
export interface ConfinedPaths {
  get(key: string, now: number): string | undefined
  set(key: string, real: string, now: number): void
}

/** A bounded cache of confined paths, each trusted for `ttlMs`. */
export function createConfinedPaths(ttlMs = 1000, max = 1000): ConfinedPaths {
  const entries = new Map<string, { real: string; at: number }>()
  return {
    get(key, now) {
      const entry = entries.get(key)
      return entry && now - entry.at < ttlMs ? entry.real : undefined
    },
    set(key, real, now) {
      if (entries.size >= max) entries.clear()
      entries.set(key, { real, at: now })
    },
  }
}

/**
 * Resolves and loads a spec file or folder under the served folder. Every spec file beside it is
 * read too (chaining), so each must also stay inside. Not a spec or a folder of specs, or a spec
 * error: 422, as loadProject reports it.
 */
export function loadUnder(specs: SpecCache, root: string, raw: unknown, field = 'path', confined?: ConfinedPaths, now: number = Date.now()): Project {
  try {
    const key = typeof raw === 'string' ? `${root}\0${raw}` : ''
    let real = key ? confined?.get(key, now) : undefined
    if (real === undefined) {
      const found = confine(root, raw, field)
      confineSpecFiles(found.realRoot, statSync(found.real).isDirectory() ? found.real : dirname(found.real), field)
      real = found.real
      if (key) confined?.set(key, real, now)
    }
    return specs.load(real)
  } catch (error) {
    // Say which field failed when it is not the main one: a request can name two paths.
    if (field !== 'path' && error instanceof JudgeError && !error.message.startsWith(field)) error.message = `${field}: ${error.message}`
    throw error
  }
}

/** Whether `path` is `root` or lies beneath it; both are real, absolute paths. */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

function confineSpecFiles(realRoot: string, dir: string, field: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isSymbolicLink() || !SPEC_SUFFIX.test(entry.name)) continue
    const real = realOrNull(join(dir, entry.name))
    if (real !== null && !isWithin(realRoot, real)) {
      throw new ForbiddenError(`${field}: the spec file ${entry.name} beside it links outside the served folder`)
    }
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync.native(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null
    throw error
  }
}
