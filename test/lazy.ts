import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { lazy } from '../src/lazy.ts'

/** The URL of a module beside the ones a test writes into `dir`, as a caller's `import.meta.url`. */
const caller = (dir: string) => pathToFileURL(join(dir, 'caller.ts')).href

/** How many times each fixture module of this file was evaluated, by name. */
const evaluated: Record<string, number> = {}
;(globalThis as { lazyEvaluated?: Record<string, number> }).lazyEvaluated = evaluated

/** A module that counts its evaluations and exports a typed function. */
const counting = (name: string) =>
  `const seen = globalThis.lazyEvaluated; seen[${JSON.stringify(name)}] = (seen[${JSON.stringify(name)}] ?? 0) + 1
export const double = (n: number): number => n * 2
`

t.test('the module is loaded on the first call, once, and is the module import() gives', async (t) => {
  const dir = t.testdir({ 'counted.ts': counting('counted') })
  const counted = lazy<{ double(n: number): number }>(caller(dir), './counted.ts')
  t.equal(evaluated.counted, undefined, 'nothing loaded before a call')
  t.equal(counted().double(21), 42, "the module's TypeScript runs")
  t.equal(counted(), counted(), 'the same module object every call')
  t.equal(evaluated.counted, 1, 'evaluated once')
  t.equal(counted(), await import(pathToFileURL(join(dir, 'counted.ts')).href), 'one module cache with import()')
  t.equal(evaluated.counted, 1, 'import() finds it loaded')
})

t.test('a path is relative to the module that loads it, and may climb out of its folder', async (t) => {
  const dir = t.testdir({ up: { 'climbed.ts': counting('climbed') }, down: {} })
  const climbed = lazy<{ double(n: number): number }>(caller(join(dir, 'down')), '../up/climbed.ts')
  t.equal(climbed().double(4), 8)
})

t.test('a load that fails throws, naming the file, and the next call loads again', async (t) => {
  const dir = t.testdir({})
  const late = lazy<{ double(n: number): number }>(caller(dir), './late.ts')
  t.throws(() => late(), { code: 'MODULE_NOT_FOUND', message: /late\.ts/ })
  writeFileSync(join(dir, 'late.ts'), counting('late'))
  t.equal(late().double(1), 2, 'loaded once the file is there')
  t.equal(evaluated.late, 1)
})
