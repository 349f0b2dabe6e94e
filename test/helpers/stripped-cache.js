// A load hook the test runner gives every Node process of `npm test` (through NODE_OPTIONS, so that
// the servers and CLIs a test starts have it too): it keeps each TypeScript file with its types
// stripped, by the hash of its text and of Node's version, in JUDGE_TEST_STRIPPED, and serves it from
// there to the next process. Stripping is Node's own (`stripTypeScriptTypes`, which keeps every
// offset, so coverage maps as before), but its compiler is WebAssembly that each process would load
// and warm up again: about 0.25 s of CPU for a process that loads the server, for over 130 processes.
// Node's own compile cache would save that too, but under c8 V8 counts fewer branches in code read
// from it; this keeps only the text, and V8 compiles it, counters and all.
//
// JavaScript, not TypeScript: a TypeScript hook would load the compiler it spares the rest.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
// A namespace, not named imports: under a Node without them (a test runs Node 20 to see the bin refuse it) the
// hook must load and do nothing, not fail to link.
import * as nodeModule from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = process.env.JUDGE_TEST_STRIPPED

/**
 * The text Node itself would run for a TypeScript file: its types stripped, offsets kept, and its URL
 * named in a `sourceURL` comment (which also keeps c8's count of branches what it is without this
 * hook). From the cache, or stripped now and kept.
 */
export function stripped(url, source, cacheDir) {
  const key = createHash('sha1').update(`${process.version}\0${url}\0`).update(source).digest('hex')
  const file = join(cacheDir, `${key}.js`)
  try {
    return readFileSync(file, 'utf8')
  } catch {
    const text = quietly(() => nodeModule.stripTypeScriptTypes(source, { sourceUrl: url }))
    // Written aside and renamed, so that a process reading at the same time reads all or nothing.
    const aside = `${file}.${process.pid}`
    try {
      writeFileSync(aside, text)
      renameSync(aside, file)
    } catch {
      // A cache that cannot be written costs time, not correctness.
    }
    return text
  }
}

/** Runs `f` without the warning that `stripTypeScriptTypes` is experimental, which tests reading stderr would see. */
function quietly(f) {
  const emitWarning = process.emitWarning
  process.emitWarning = (warning, ...rest) =>
    String(warning).includes('stripTypeScriptTypes') ? undefined : emitWarning.call(process, warning, ...rest)
  try {
    return f()
  } finally {
    process.emitWarning = emitWarning
  }
}

if (dir && typeof nodeModule.registerHooks === 'function') {
  mkdirSync(dir, { recursive: true })
  nodeModule.registerHooks({
    load(url, context, nextLoad) {
      // Only the project's own .ts files: Node refuses to strip under node_modules, and says so.
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) {
        return nextLoad(url, context)
      }
      const source = readFileSync(fileURLToPath(url), 'utf8')
      return { format: 'module', source: stripped(url, source, dir), shortCircuit: true }
    },
  })
}
