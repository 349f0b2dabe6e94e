import t from 'tap'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

// The seams of docs/architecture.md, checked on the source text: file sizes, import cycles, what
// each layer may import, and a test beside every source file.

const ROOT = resolve(import.meta.dirname, '..')
// Measured on the formatted code (Biome, 120 columns: docs/architecture.md, Formatting): one concern
// a file, with room for its types and comments, and no cramming to fit.
const MAX_LINES = 300
// The formatter's width: Biome wraps code but not string literals, which are split by hand.
const MAX_COLUMNS = 120

/** One import or re-export of a source file. */
interface Import {
  /** The file imported, as `src/…`, or null for a package or a Node built-in. */
  readonly file: string | null
  /** What was written after `from`. */
  readonly specifier: string
  /** `import type` or `export type`: erased, so no code of the target runs. */
  readonly typeOnly: boolean
}

const SOURCES = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/${f.split('\\').join('/')}`)
  .sort()
const TEXT = new Map(SOURCES.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]))

// `import … from '…'`, `export … from '…'` and `import '…'`; the clause holds only names, braces,
// commas, `*`, `as` and `type`, so that no `from` inside code or a string is taken for an import.
const IMPORT = /^[ \t]*(?:import|export)\s+(type\s+)?(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]/gm

// `import('…')`: a module loaded on first use, by a dynamic import or by a synchronous load whose
// type is written `typeof import('…')` (src/adapters/engines.ts): an edge all the same.
const LAZY = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function importsOf(file: string): Import[] {
  const text = TEXT.get(file)!
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const lazy = [...code.matchAll(LAZY)].map(([, specifier]) => [undefined, specifier] as const)
  return [...[...text.matchAll(IMPORT)].map(([, type, specifier]) => [type, specifier] as const), ...lazy].map(
    ([type, specifier]) => ({
      specifier,
      typeOnly: type !== undefined,
      file: specifier.startsWith('.')
        ? relative(ROOT, resolve(ROOT, dirname(file), specifier))
            .split('\\')
            .join('/')
        : null,
    }),
  )
}

const IMPORTS = new Map(SOURCES.map((f) => [f, importsOf(f)]))

const isBuiltin = (i: Import) =>
  i.file === null && (i.specifier.startsWith('node:') || builtinModules.includes(i.specifier))
const isPackage = (i: Import) => i.file === null && !isBuiltin(i)
const under = (folder: string) => (i: Import) => i.file !== null && i.file.startsWith(`src/${folder}/`)
const is =
  (...files: string[]) =>
  (i: Import) =>
    i.file !== null && files.includes(i.file)
/** The store's ports: a transport reaches the store only through a use case. */
const storePort = is(
  'src/ports/store.ts',
  'src/ports/answer-store.ts',
  'src/ports/run-store.ts',
  'src/ports/kept-store.ts',
  'src/ports/pace-store.ts',
  'src/ports/forget-store.ts',
)

/** A layer: the files it holds and what each of their imports must be. */
interface Layer {
  readonly name: string
  readonly holds: (file: string) => boolean
  readonly may: (i: Import) => boolean
  readonly says: string
}

const LAYERS: readonly Layer[] = [
  {
    // The statistics know nothing of judgments: each takes the data it reads as its own interface.
    name: 'core stats',
    holds: (f) => f.startsWith('src/core/stats/'),
    may: (i) => under('core/stats')(i) || isBuiltin(i),
    says: 'a statistic imports only core/stats/ and Node built-ins: it takes the data it reads as an interface of its own, and its caller adapts',
  },
  {
    name: 'core',
    holds: (f) => f.startsWith('src/core/'),
    may: (i) =>
      under('core')(i) ||
      (under('ports')(i) && i.typeOnly) ||
      is('src/errors.ts', 'src/format.ts')(i) ||
      isBuiltin(i) ||
      isPackage(i),
    says: 'core imports only core, port types (import type), errors.ts, format.ts, Node built-ins and packages',
  },
  {
    name: 'ports',
    holds: (f) => f.startsWith('src/ports/'),
    may: (i) => (under('core')(i) || under('ports')(i)) && i.typeOnly,
    says: 'a port imports only core and port types, with import type',
  },
  {
    name: 'app',
    holds: (f) => f.startsWith('src/app/'),
    may: (i) => under('app')(i) || under('core')(i) || under('ports')(i) || is('src/errors.ts')(i) || isBuiltin(i),
    says: 'a use case imports only app, core, ports, errors.ts and Node built-ins: never adapters, cli, http or the runtime',
  },
  {
    name: 'adapters',
    holds: (f) => f.startsWith('src/adapters/'),
    may: (i) =>
      under('adapters')(i) ||
      under('core')(i) ||
      under('ports')(i) ||
      is('src/errors.ts', 'src/store-error.ts', 'src/lazy.ts')(i) ||
      isBuiltin(i) ||
      isPackage(i),
    says: 'an adapter imports only adapters, core, ports, errors.ts, store-error.ts, lazy.ts, Node built-ins and packages: never app, cli or http',
  },
  {
    // The one way to load late, which every layer around the core may use: it knows no module of its own.
    name: 'late loading',
    holds: (f) => f === 'src/lazy.ts',
    may: isBuiltin,
    says: 'lazy.ts imports only Node built-ins',
  },
  {
    // Errors and formatting are imported by core, so they must not reach beyond it.
    name: 'errors and format',
    holds: (f) => f === 'src/errors.ts' || f === 'src/format.ts',
    may: (i) => is('src/format.ts')(i),
    says: 'errors.ts and format.ts import nothing but format.ts',
  },
  {
    // The store's error is the adapters' alone: the core and the use cases never see a file.
    name: 'store error',
    holds: (f) => f === 'src/store-error.ts',
    may: (i) => is('src/errors.ts')(i),
    says: 'store-error.ts imports nothing but errors.ts',
  },
  {
    name: 'cli',
    holds: (f) => f.startsWith('src/cli/'),
    may: (i) => !under('http')(i) && !storePort(i),
    says: 'the CLI imports neither the HTTP layer nor a store port: it reaches the store through use cases',
  },
  {
    // A page renders data; an endpoint answers a request: both may read page-data/, neither the other.
    name: 'http pages',
    holds: (f) => f.startsWith('src/http/pages/'),
    may: (i) => !under('http/endpoints')(i),
    says: 'a page does not import an endpoint: the data it renders is built in src/http/page-data/',
  },
  {
    name: 'http endpoints',
    holds: (f) => f.startsWith('src/http/endpoints/'),
    may: (i) => !under('http/pages')(i),
    says: 'an endpoint does not import a page: a page and its JSON twin are declared once (src/http/twins.ts)',
  },
  {
    name: 'http page data',
    holds: (f) => f.startsWith('src/http/page-data/'),
    may: (i) => !under('http/pages')(i) && !under('http/endpoints')(i),
    says: 'page data (the data of a page and its twin) imports no page and no endpoint',
  },
  {
    name: 'http',
    holds: (f) => f.startsWith('src/http/'),
    may: (i) => !under('cli')(i) && !storePort(i),
    says: 'the HTTP layer imports neither the CLI nor a store port: it reaches the store through use cases',
  },
]

/** Imports that break a layer's rule on purpose, each with its reason. */
const EXCEPTIONS: readonly { readonly from: string; readonly to: string; readonly why: string }[] = [
  {
    from: 'src/cli/commands/serve.ts',
    to: 'src/http/server.ts',
    why: '`judge serve` starts the HTTP server, as `node src/main.ts` does',
  },
  {
    from: 'src/cli/commands/serve.ts',
    to: 'src/http/workers.ts',
    why: '`judge serve --workers` starts the HTTP server in several processes',
  },
]

/**
 * Source files without a test file of their own: each declares types only (interfaces of ports
 * and of the App, the core's data types, the CLI's streams), so there is no behaviour to test;
 * the code that uses them is tested.
 */
const TYPE_ONLY = ['src/core/types.ts', 'src/app/app.ts', 'src/cli/io.ts', 'src/core/reports/report-types.ts']

t.test('no source file is over 300 lines', async (t) => {
  for (const [file, text] of TEXT) {
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    t.ok(lines <= MAX_LINES, `${file} has ${lines} lines`)
  }
})

// Counted in UTF-8 bytes, which a line's · − → take three of: a tool that counts bytes (awk, git's
// diff stat) and one that counts characters then agree that no line is over.
t.test('no source line is over 120 bytes, string literals included', async (t) => {
  const long = [...TEXT].flatMap(([file, text]) =>
    text.split('\n').flatMap((line, i) => (Buffer.byteLength(line) > MAX_COLUMNS ? [`${file}:${i + 1}`] : [])),
  )
  t.same(long, [], 'lines over 120 bytes (a long literal: split it into pieces joined with +)')
})

// A V8 flag a command needs is set as its process starts (bin/judge.js, docs/cli.md), where a
// reader of the command line sees it, never changed on a running process.
t.test('no V8 flag is changed at run time: setFlagsFromString is in no source file', async (t) => {
  t.same(
    SOURCES.filter((file) => TEXT.get(file)!.includes('setFlagsFromString')),
    [],
    'files that change V8 flags at run time',
  )
})

// A late load names its module twice, as its type and as its path: `lazy<typeof import('./x.ts')>(import.meta.url, './x.ts')`.
const LAZY_CALL = /\blazy<typeof import\(\s*'([^']+)'\s*\)>\(\s*import\.meta\.url,\s*'([^']+)',?\s*\)/g

t.test('a source module loads late only through src/lazy.ts, its type and its path the same module', async (t) => {
  const calls = SOURCES.flatMap((file) => [...TEXT.get(file)!.matchAll(LAZY_CALL)].map((m) => ({ file, m })))
  t.ok(calls.length > 40, `${calls.length} late loads`)
  for (const { file, m } of calls) t.equal(m[2], m[1], `${file}: lazy() of ${m[2]} has the type of ${m[1]}`)
  for (const file of SOURCES.filter((f) => f !== 'src/lazy.ts')) {
    const code = TEXT.get(file)!.replace(/^\s*(\/\/|\*).*$/gm, '')
    t.notOk(/\bcreateRequire\b/.test(code), `${file} makes no require of its own`)
    const calls = (code.match(/\blazy</g) ?? []).length
    t.equal(calls, (code.match(LAZY_CALL) ?? []).length, `${file}: every lazy() call names its module as a literal`)
    // src/cli.ts imports its modules only once the compile cache is on: an order of loading, not a late load.
    if (file === 'src/cli.ts') continue
    const dynamic = [...code.matchAll(/(?<!typeof )\bimport\(\s*'(\.[^']*)'/g)].map((m) => m[1])
    t.same(dynamic, [], `${file} imports no source module with import()`)
  }
})

t.test('imports resolve to source files, so that the checks below see every edge', async (t) => {
  for (const [file, imports] of IMPORTS) {
    for (const i of imports)
      if (i.file !== null) t.ok(TEXT.has(i.file), `${file} imports ${i.specifier}, a source file`)
  }
  t.ok([...IMPORTS.values()].flat().length > 300, 'the imports were found')
})

t.test('no import cycle among source files', async (t) => {
  const cycles = findCycles(
    new Map(
      [...IMPORTS].map(([f, imports]) => [f, imports.flatMap((i) => (i.file && TEXT.has(i.file) ? [i.file] : []))]),
    ),
  )
  t.same(
    cycles.map((c) => c.join(' -> ')),
    [],
  )
})

t.test('no import cycle among the folders of src/core/', async (t) => {
  t.same(folderCycles(IMPORTS), [])
})

t.test('the folder check names each cycle with the imports that close it', async (t) => {
  const imports = new Map<string, Import[]>([
    [
      'src/core/review/retraction.ts',
      [{ file: 'src/core/compare/verdict.ts', specifier: '../compare/verdict.ts', typeOnly: true }],
    ],
    [
      'src/core/compare/compare.ts',
      [{ file: 'src/core/review/accuracy.ts', specifier: '../review/accuracy.ts', typeOnly: false }],
    ],
    ['src/core/compare/verdict.ts', [{ file: 'src/core/types.ts', specifier: '../types.ts', typeOnly: true }]],
    [
      'src/core/types.ts',
      [{ file: 'src/core/compare/compare.ts', specifier: './compare/compare.ts', typeOnly: false }],
    ],
  ])
  t.same(
    folderCycles(imports),
    [
      'core/review -> core/compare (src/core/review/retraction.ts imports ../compare/verdict.ts) -> core/review (src/core/compare/compare.ts imports ../review/accuracy.ts)',
    ],
    'a type-only import counts; a file at the root of core/ belongs to no folder',
  )
})

t.test('the stats rule refuses an import of the rest of core/, a port or a package', async (t) => {
  const stats = LAYERS.find((l) => l.name === 'core stats')!
  t.ok(stats.holds('src/core/stats/wilson.ts'))
  t.ok(stats.may({ file: 'src/core/stats/wilson.ts', specifier: './wilson.ts', typeOnly: false }))
  t.ok(stats.may({ file: null, specifier: 'node:crypto', typeOnly: false }))
  t.notOk(stats.may({ file: 'src/core/review/accuracy.ts', specifier: '../review/accuracy.ts', typeOnly: false }))
  t.notOk(stats.may({ file: 'src/core/hash.ts', specifier: '../hash.ts', typeOnly: false }))
  t.notOk(stats.may({ file: 'src/ports/answer-store.ts', specifier: '../../ports/answer-store.ts', typeOnly: true }))
  t.notOk(stats.may({ file: null, specifier: 'yaml', typeOnly: false }))
})

t.test('each layer imports only what it may', async (t) => {
  for (const layer of LAYERS) {
    const files = SOURCES.filter(layer.holds)
    t.ok(files.length > 0, `the ${layer.name} layer has files`)
    for (const file of files) {
      for (const i of IMPORTS.get(file)!) {
        if (layer.may(i) || EXCEPTIONS.some((e) => e.from === file && e.to === i.file)) continue
        t.fail(`${file} imports ${i.typeOnly ? 'type ' : ''}${i.specifier}: ${layer.says}`)
      }
    }
  }
})

t.test("transports reach the store only through use cases: no call of the App's store openers", async (t) => {
  const transports = SOURCES.filter((f) => f.startsWith('src/cli/') || f.startsWith('src/http/'))
  t.ok(transports.length > 50, 'the transports have files')
  for (const file of transports) {
    const code = TEXT.get(file)!
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
    const call = /\.(existingStore|depsFor)\(/.exec(code)
    t.equal(
      call,
      null,
      `${file} calls ${call?.[1] ?? 'no store opener'}: a transport asks a use case (src/app/) instead`,
    )
  }
})

t.test('each exception is still an import of the code', async (t) => {
  for (const e of EXCEPTIONS)
    t.ok(
      IMPORTS.get(e.from)?.some((i) => i.file === e.to),
      `${e.from} imports ${e.to} (${e.why})`,
    )
})

t.test('every source file has a test at the mirrored path under test/', async (t) => {
  for (const file of SOURCES) {
    if (TYPE_ONLY.includes(file)) continue
    t.ok(existsSync(join(ROOT, 'test', file.slice('src/'.length))), `test/${file.slice('src/'.length)} tests ${file}`)
  }
})

t.test('the files without a test declare types only', async (t) => {
  for (const file of TYPE_ONLY) {
    const text = TEXT.get(file)
    t.ok(text !== undefined, `${file} exists`)
    const code = (text ?? '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
    t.notMatch(
      code,
      /^\s*(?:export\s+)?(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|enum\b)/m,
      `${file} declares no value`,
    )
    t.ok(
      IMPORTS.get(file)?.every((i) => i.typeOnly),
      `${file} imports types only`,
    )
    // Once Node strips the types, nothing is left to export.
    t.same(Object.keys(await import(pathToFileURL(join(ROOT, file)).href)), [], `${file} exports nothing that runs`)
    t.notOk(existsSync(join(ROOT, 'test', file.slice('src/'.length))), `${file} has a test now: take it off the list`)
  }
})

/** The folder of src/core/ a file is in, as `core/<folder>`, or null for a file at the root of core/ or outside it. */
function coreFolder(file: string): string | null {
  const match = /^src\/(core\/[^/]+)\//.exec(file)
  return match ? match[1] : null
}

/**
 * The cycles among the folders of src/core/, each as `core/a -> core/b (the import) -> core/a (the
 * import)`: one per strongly connected component, read along a shortest way round from its first
 * folder, every import counted (type-only ones too: the folders still depend on each other).
 */
function folderCycles(imports: ReadonlyMap<string, readonly Import[]>): string[] {
  const edges = new Map<string, Map<string, string>>()
  for (const [file, list] of imports) {
    const from = coreFolder(file)
    if (from === null) continue
    for (const i of list) {
      const to = i.file === null ? null : coreFolder(i.file)
      if (to === null || to === from) continue
      const out = edges.get(from) ?? new Map<string, string>()
      if (!out.has(to)) out.set(to, `${file} imports ${i.specifier}`)
      edges.set(from, out)
    }
  }
  const graph = new Map([...edges].map(([from, out]) => [from, [...out.keys()]]))
  return findCycles(graph).map((component) => {
    const start = component[0]
    // Breadth first from the start, within the component, until an edge leads back to it.
    const before = new Map<string, string>([[start, '']])
    const queue = [start]
    let last = start
    search: while (queue.length > 0) {
      const node = queue.shift()!
      for (const next of graph.get(node) ?? []) {
        if (next === start) {
          last = node
          break search
        }
        if (!component.includes(next) || before.has(next)) continue
        before.set(next, node)
        queue.push(next)
      }
    }
    const path = [last]
    while (path[0] !== start) path.unshift(before.get(path[0])!)
    return [...path, start].map((f, k, all) => (k === 0 ? f : `${f} (${edges.get(all[k - 1])!.get(f)})`)).join(' -> ')
  })
}

/** Every cycle of the graph, one per strongly connected component of more than one file (or a file importing itself). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.reverse())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}
