// What an entry point can reach: the static import graph from its file, read from the source text,
// late loads (src/lazy.ts, `import('…')`) followed as edges, and into packages as Node resolves
// them (their `exports` by the importer's conditions, their `require` and `import` calls).
import { builtinModules } from 'node:module'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { ROOT } from './cli.ts'

/** What an entry can reach. */
export interface Reach {
  /** Source files, as `src/…`, sorted. */
  readonly modules: readonly string[]
  /** Package files, as `node_modules/…`, sorted. */
  readonly packages: readonly string[]
  /** Node built-ins, without the `node:` prefix, sorted. */
  readonly builtins: readonly string[]
}

/** An edge to leave out, such as a command table's loads of the commands not run. */
export type Skip = (from: string, to: string) => boolean

// `import … from '…'`, `export … from '…'`, `import '…'`, also minified (`import{a}from"./b.js"`);
// `import type` and `export type` run no code of their target and are no edge.
const STATIC = /(?:^|[;\n}])[ \t]*(?:import|export)(?!\s+type\s)\s*(?:[\w$*{},\s]*?from\s*)?['"]([^'"\n]+)['"]/g
// `import('…')` and `require('…')` with a literal; a late load of src/lazy.ts names its path after import.meta.url.
const CALL = /(?<!typeof )\b(?:import|require)\(\s*['"]([^'"\n]+)['"]\s*\)/g
const LAZY = /\blazy<[^>]*>\(\s*import\.meta\.url,\s*'([^']+)'/g

/** The specifiers a file loads, comments of a source file left out. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const code = file.endsWith('.ts') ? text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '') : text
  return [STATIC, CALL, LAZY].flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1]))
}

/** Whether a file is an ES module: .mjs, .ts of this package, or .js of a package of type module. */
function isEsm(file: string): boolean {
  if (file.endsWith('.mjs') || file.endsWith('.ts')) return true
  if (file.endsWith('.cjs')) return false
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module'
  }
  return false
}

const isFile = (file: string) => existsSync(file) && statSync(file).isFile()

/** A relative path as Node's resolvers complete it: the file, then with .js, .cjs or .json, then its index. */
function complete(path: string): string | null {
  for (const tail of ['', '.js', '.cjs', '.json', '/index.js']) if (isFile(path + tail)) return path + tail
  return null
}

/** The target of a package's `exports` (or a condition object within it) under `conditions`. */
function target(exported: unknown, conditions: readonly string[]): string | null {
  if (typeof exported === 'string') return exported
  if (exported === null || typeof exported !== 'object') return null
  for (const [key, value] of Object.entries(exported))
    if (conditions.includes(key)) {
      const found = target(value, conditions)
      if (found !== null) return found
    }
  return null
}

/** The file a package specifier names from `from`, as Node resolves it, or null. */
function resolvePackage(specifier: string, from: string): string | null {
  const parts = specifier.split('/')
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
  const subpath = `.${specifier.slice(name.length)}`
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const home = join(dir, 'node_modules', name)
    if (!existsSync(join(home, 'package.json'))) continue
    const manifest = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8'))
    const conditions = ['node', isEsm(from) ? 'import' : 'require', 'module-sync', 'default']
    if (manifest.exports !== undefined) {
      const exports =
        typeof manifest.exports === 'object' && '.' in manifest.exports ? manifest.exports : { '.': manifest.exports }
      const found = target(exports[subpath], conditions)
      return found === null ? null : complete(join(home, found))
    }
    return complete(join(home, subpath === '.' ? (manifest.main ?? 'index.js') : subpath))
  }
  return null
}

/** Everything `entries` (paths from the project's root) can reach, without the edges `skip` leaves out. */
export function reachable(entries: readonly string[], skip: Skip = () => false): Reach {
  const seen = new Set<string>()
  const builtins = new Set<string>()
  const queue = entries.map((entry) => resolve(ROOT, entry))
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    if (file.endsWith('.json')) continue
    for (const specifier of specifiers(file)) {
      const bare = specifier.replace(/^node:/, '')
      if (specifier.startsWith('node:') || builtinModules.includes(bare)) builtins.add(bare)
      else {
        const to = specifier.startsWith('.')
          ? complete(resolve(dirname(file), specifier))
          : resolvePackage(specifier, file)
        if (to !== null && !skip(relative(ROOT, file), relative(ROOT, to))) queue.push(to)
      }
    }
  }
  const files = [...seen].map((file) => relative(ROOT, file).split('\\').join('/')).sort()
  return {
    modules: files.filter((f) => f.startsWith('src/')),
    packages: files.filter((f) => f.startsWith('node_modules/')),
    builtins: [...builtins].sort(),
  }
}
