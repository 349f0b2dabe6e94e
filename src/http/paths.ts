import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { SpecCache } from '../adapters/files/spec-files.ts'
import { FILE_KEYS, SPEC_SUFFIX } from '../core/spec/spec-parse.ts'
import type { Project } from '../core/types.ts'
import { ForbiddenError, JudgeError, NotFoundError, SpecError, UsageError } from '../errors.ts'
import { specFiles } from './folders.ts'
import { PathRequiredError } from './path-required-error.ts'

/**
 * Resolves a request's `path` (or `shadow`) under the served folder and returns the real path of
 * what it names. Missing or not a string: 400. A NUL byte, an absolute path, a `..` segment, or a
 * symlink whose target lies outside the folder: 403. Nothing there: 404.
 */
export function resolveUnder(root: string, raw: unknown, field = 'path'): string {
  return confine(root, raw, field).real
}

function confine(root: string, raw: unknown, field: string): { realRoot: string; real: string } {
  if (raw === undefined || raw === null || raw === '') throw new PathRequiredError(field, () => specFiles(root))
  if (typeof raw !== 'string') throw new UsageError(`${field} must be a string`)
  if (raw.includes('\0')) throw new ForbiddenError(`${field} must not contain a NUL byte`)
  // Backslashes and drive letters count too, so that no spelling of an escape gets through.
  if (isAbsolute(raw) || /^[\\/]|^[a-zA-Z]:/.test(raw))
    throw new ForbiddenError(`${field} must be relative to the served folder, not absolute`)
  if (raw.split(/[\\/]/).includes('..')) throw new ForbiddenError(`${field} must not contain a .. segment`)
  const realRoot = realOrNull(root)
  if (realRoot === null) throw new NotFoundError('the served folder (JUDGE_PROJECTS) does not exist')
  const real = realOrNull(resolve(realRoot, raw))
  if (real === null) throw new NotFoundError(`${field} ${raw} does not exist`)
  if (!isWithin(realRoot, real)) throw new ForbiddenError(`${field} ${raw} leads outside the served folder`)
  return { realRoot, real }
}

/**
 * Resolves and loads a spec file or folder under the served folder, checking everything against
 * the disk: the path confined, every spec file beside it (chaining reads them, so each must stay
 * inside too) and every file its specs name. Not a spec or a folder of specs, or a spec error: 422,
 * as loadProject reports it. A server calls it through its one revalidation point (resolved-paths.ts).
 */
export function loadUnder(specs: SpecCache, root: string, raw: unknown, field = 'path'): Project {
  try {
    const found = confine(root, raw, field)
    confineSpecFiles(found.realRoot, statSync(found.real).isDirectory() ? found.real : dirname(found.real), field)
    return confineNamedFiles(root, specs.load(found.real))
  } catch (error) {
    // Say which field failed when it is not the main one: a request can name two paths.
    if (field !== 'path' && error instanceof JudgeError && !error.message.startsWith(field))
      error.message = `${field}: ${error.message}`
    throw error
  }
}

/**
 * Refuses a project any of whose specs names a file (a key of the parser's FILE_KEYS) that resolves,
 * symlinks followed, outside the served folder: a 422 spec error naming the key and not the
 * resolved path. A file not made yet counts where it would be made.
 */
export function confineNamedFiles(root: string, project: Project): Project {
  const realRoot = realOrNull(root)
  for (const spec of project.specs) {
    for (const key of FILE_KEYS) {
      const file = spec[key]
      if (file === null || (realRoot !== null && isWithin(realRoot, realOfFuture(file) ?? sep))) continue
      throw new SpecError(
        spec.file,
        key,
        'names a file outside the served folder (JUDGE_PROJECTS); the server reads and writes only files inside it',
      )
    }
  }
  return project
}

/** The real path a file has, or would have once made; null for a dangling symlink (it could point anywhere). */
function realOfFuture(path: string): string | null {
  const real = realOrNull(path)
  if (real !== null) return real
  if (isLink(path)) return null
  const parent = dirname(path)
  if (parent === path) return null
  const realParent = realOfFuture(parent)
  return realParent === null ? null : join(realParent, basename(path))
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
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
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG') return null
    throw error
  }
}
