import { createRequire } from 'node:module'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'

// The one way a module is loaded late (docs/architecture.md, Entry points). The load is
// synchronous: Node 24 requires an ES module into the module cache `import` uses, so an engine
// created in a synchronous step, a page rendered for an error and a command run all load alike.
const load = createRequire(import.meta.url)
// Modules are written `./x.ts`; beside this file they end as it does: .ts in the source, .js in the built package.
const EXTENSION = extname(import.meta.filename)

/** A module path relative to the module that loads it, as an import names it. */
export type ModulePath = `./${string}.ts` | `../${string}.ts`

/**
 * The module at `path` (relative to `from`, the caller's `import.meta.url`), loaded on the first
 * call and the same object from then on; a load that throws is tried again by the next call.
 * The type is the module's, written once beside it.
 *
 * @example
 * const pages = lazy<typeof import('./pages/runs.ts')>(import.meta.url, './pages/runs.ts')
 * pages().runsPage(data, token)
 */
export function lazy<M>(from: string, path: ModulePath): () => M {
  const file = fileURLToPath(new URL(path.slice(0, -'.ts'.length) + EXTENSION, from))
  let loaded: M | undefined
  return () => (loaded ??= load(file) as M)
}
