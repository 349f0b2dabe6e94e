import { readdirSync, readFileSync, statSync } from 'node:fs'
import type { Stats } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { InputError, NotFoundError, SpecError, UsageError } from '../errors.ts'
import { resolveProject } from './project-graph.ts'
import type { LoadedSpec } from './project-graph.ts'
import { parseSpec, SPEC_SUFFIX } from './spec-parse.ts'
import type { Project, Spec } from './types.ts'

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

/** A spec cache keyed by file identity (path, mtime, size, inode), for callers that load often. */
export function createSpecCache(): SpecCache {
  const entries = new Map<string, Entry>()
  return {
    load(path: string): Project {
      const target = resolve(path)
      const { dir, files, selectedFile } = locate(target)
      for (const file of entries.keys()) {
        if (dirname(file) === dir && !files.includes(file)) entries.delete(file)
      }
      const { specs, selected } = resolveProject(
        files.map((file) => readSpec(entries, file)),
        selectedFile,
      )
      return { path: target, dir, specs, selected }
    },
  }
}

/** The judgments `spec` depends on, directly or not, in dependency order. */
export function dependenciesOf(project: Project, spec: Spec): Spec[] {
  const byName = new Map(project.specs.map((s) => [s.name, s]))
  const needed = new Set<Spec>()
  const pending = [spec]
  while (pending.length > 0) {
    for (const { ref } of pending.pop()!.state) {
      const dep = ref && byName.get(ref.judgment)
      if (!dep || needed.has(dep)) continue
      needed.add(dep)
      pending.push(dep)
    }
  }
  return project.specs.filter((s) => s !== spec && needed.has(s))
}

/** The judgment of the project named `name`; an unknown name is a UsageError listing the known ones. */
export function findJudgment(project: Project, name: string): Spec {
  const spec = project.specs.find((s) => s.name === name)
  if (spec) return spec
  const known = project.specs.map((s) => s.name).join(', ')
  throw new UsageError(`unknown node "${name}"; the judgments are ${known}`)
}

function locate(target: string): { dir: string; files: string[]; selectedFile: string | null } {
  const stats = statOf(target)
  if (!stats) throw new NotFoundError(`no such file or folder: ${target}`)
  if (stats.isDirectory()) {
    const files = specFilesIn(target)
    if (files.length === 0) throw new InputError(`${target} holds no spec files (*.judge.yaml or *.judge.yml)`)
    return { dir: target, files, selectedFile: null }
  }
  if (!stats.isFile() || !SPEC_SUFFIX.test(target)) {
    throw new InputError(`${target} is not a spec file (a spec file's name ends in .judge.yaml or .judge.yml)`)
  }
  const dir = dirname(target)
  return { dir, files: specFilesIn(dir), selectedFile: target }
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
function readSpec(entries: Map<string, Entry>, file: string): LoadedSpec {
  const stats = statOf(file)
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
