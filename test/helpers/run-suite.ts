import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// The runner of `npm test` and `npm run test:slow`. Each test file is a tap test that runs on its
// own (`node test/x.ts` prints its TAP). Starting a process with tap and its mocking loader costs
// about 0.5 s of CPU, which for 200 files was most of the suite on two cores; so the files of one
// folder run in one process, one after another (run-group.ts), the folders several at once. A
// folder that fails is run again a file at a time, so that the report names the file and shows
// its whole TAP. One whose files each pass alone has failed all the same: a file depends on what
// another leaves behind, or on the order they run in, and the run fails. Quiet while everything
// passes.

const ROOT = resolve(import.meta.dirname, '../..')

/** Folders and files never run as tests: helpers, fixtures, and the slow ones `test:slow` runs. */
export const NOT_TESTS = ['test/helpers/', 'test/fixtures/']

/** The tests `npm run test:slow` runs; `npm test` leaves them out. */
export const SLOW = [
  'test/browser/',
  'test/package.ts',
  'test/core/review/estimate-simulation.ts',
  'test/store-soak.ts',
]

/** A test file's outcome. */
export interface FileResult {
  /** The file, or the folder of a group of files run in one process. */
  readonly file: string
  /** How many test files it ran. */
  readonly files: number
  readonly code: number | null
  readonly output: string
  readonly ms: number
  readonly timedOut: boolean
}

/** tap's count of one file's assertions, from the last `# { total: … }` line of its TAP. */
export interface Counts {
  readonly total: number
  readonly pass: number
  readonly fail: number
  readonly skip: number
}

/** The counts a file's TAP ends with; all 0 when it printed none (it died first). */
export function countsOf(output: string): Counts {
  const line = [...output.matchAll(/^# \{ total: (\d+)(.*)\}$/gm)].at(-1)
  const count = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(line?.[2] ?? '')?.[1] ?? 0)
  return { total: Number(line?.[1] ?? 0), pass: count('pass'), fail: count('fail'), skip: count('skip') }
}

/** Whether a file passed: it exited 0 in time and tap counted no failure. */
export function passed(result: FileResult): boolean {
  return result.code === 0 && !result.timedOut && countsOf(result.output).fail === 0
}

/** The skipped tests of a file's TAP, each with its reason. */
export function skipsOf(output: string): string[] {
  return [...output.matchAll(/^\s*ok \d+ - (.*) # SKIP (.*)$/gm)].map((m) => `${m[1]} (${m[2]})`)
}

/** The report of a run: skips, the whole output of each failed file, tap's summary line, the file counts and the slowest files. */
export function report(results: readonly FileResult[]): string {
  const lines: string[] = []
  for (const r of results) for (const skip of skipsOf(r.output)) lines.push(`skipped: ${skip}`)
  const failed = results.filter((r) => !passed(r))
  for (const r of failed)
    lines.push(`# ${r.file} failed${r.timedOut ? ' (timed out)' : ` (exit ${r.code})`}`, r.output.trimEnd())
  const sum = results
    .map((r) => countsOf(r.output))
    .reduce(
      (a, c) => ({ total: a.total + c.total, pass: a.pass + c.pass, fail: a.fail + c.fail, skip: a.skip + c.skip }),
      { total: 0, pass: 0, fail: 0, skip: 0 },
    )
  const fail = Math.max(sum.fail, failed.length)
  lines.push(
    `# { total: ${sum.total}, pass: ${sum.pass}${fail ? `, fail: ${fail}` : ''}${sum.skip ? `, skip: ${sum.skip}` : ''} }`,
  )
  const files = (list: readonly FileResult[]) => list.reduce((n, r) => n + r.files, 0)
  lines.push(
    `test files: ${files(results) - files(failed)} passed, ${files(failed)} failed, in ${results.length} processes`,
  )
  const slowest = [...results]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((r) => `${r.file} ${(r.ms / 1000).toFixed(1)} s`)
  lines.push(`slowest: ${slowest.join(', ')}`)
  return `${lines.join('\n')}\n`
}

/** The test files under `paths` (files or folders), in path order, less NOT_TESTS and, unless named, SLOW. */
export function testFiles(paths: readonly string[], root = ROOT): string[] {
  const named = paths.length > 0
  const all = (named ? paths : ['test']).flatMap((p) =>
    p.endsWith('.ts') ? [p] : walk(join(root, p)).map((f) => relative(root, f)),
  )
  return [...new Set(all)]
    .filter((f) => !NOT_TESTS.some((n) => f.startsWith(n)) && (named || !SLOW.some((s) => f.startsWith(s))))
    .sort()
}

function walk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
}

/**
 * The simulations `npm test` runs small: the files of test/core/ and test/app/ that `npm run
 * test:slow` (package.json) runs at full size. Loops over the same core functions thousands of
 * times, they run without coverage (V8's block counters make them about half as slow again), in
 * one process of their own: the code they reach is covered by the unit tests of core/ and app/.
 */
export function simulations(root = ROOT): string[] {
  const scripts =
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {}
  return (scripts['test:slow'] ?? '').split(/\s+/).filter((f) => /^test\/(core|app)\/.+\.ts$/.test(f))
}

/** What names a unit of simulations: their folder, then this. */
export const SIMULATIONS = '(simulations, no coverage)'

/** The unit of a folder's simulations, as the report names it. */
export const simulationUnit = (folder: string) => `${folder}/ ${SIMULATIONS}`

const isSimulations = (folder: string) => folder.endsWith(SIMULATIONS)

/** Whether a unit is named as itself, not by its folder: the simulations of a folder, the short files. */
const isNamed = (folder: string) => isSimulations(folder) || folder === SHORT_FILES

/** Where a file is run from, tap's mocking loader (the project's by default), and whether it collects coverage when the runner does. */
export interface RunOptions {
  readonly root?: string
  readonly mockLoader?: string
  readonly coverage?: boolean
}

/**
 * Runs one test file, or several in one process (named by `name`), with the pinned Node and
 * tap's mocking loader, killed past `timeoutMs`.
 */
export function runFile(
  file: string | readonly string[],
  timeoutMs: number,
  options: RunOptions = {},
  name = String(file),
): Promise<FileResult> {
  const {
    root = ROOT,
    mockLoader = join(ROOT, 'node_modules/@tapjs/mock/dist/esm/import.mjs'),
    coverage = true,
  } = options
  const started = performance.now()
  const mock = pathToFileURL(mockLoader).href
  const args = typeof file === 'string' ? [file] : [join(ROOT, 'test/helpers/run-group.ts'), ...file]
  // Its own process group, so that a timeout also ends the servers and CLIs it started.
  // tap's own limit on the process (30 s unless told) is the runner's, so that only one applies.
  const env: NodeJS.ProcessEnv = { ...process.env, TAP_TIMEOUT: String(Math.ceil(timeoutMs / 1000)) }
  if (!coverage && env.NODE_V8_COVERAGE) {
    // Empty, not deleted: Node copies its own NODE_V8_COVERAGE to a child whose env lacks the name.
    env.NODE_V8_COVERAGE = ''
    env.NODE_COMPILE_CACHE = join(CACHE, 'compile')
  }
  const child = spawn(process.execPath, [`--import=${mock}`, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    process.kill(-child.pid!, 'SIGKILL')
  }, timeoutMs)
  return new Promise((done) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (signal !== null && !timedOut) output += `\n# ended by ${signal}\n`
      done({
        file: name,
        files: args.length - (typeof file === 'string' ? 0 : 1),
        code,
        output,
        ms: performance.now() - started,
        timedOut,
      })
    }),
  )
}

/**
 * The units of one process each: the files of an area of test/ (a folder of test/ with all its
 * subfolders: test/core/, test/http/) together, since starting a process with tap and coverage
 * costs about 0.3 s of CPU; each file of test/ itself alone, since those drive servers, CLIs and
 * engines end to end for seconds each; the files of `apart` (the simulations) of a folder together,
 * apart from the rest of it (simulationUnit), so that the simulations of several folders run side
 * by side.
 */
export function groups(files: readonly string[], apart: readonly string[] = []): Map<string, string[]> {
  const byFolder = new Map<string, string[]>()
  for (const file of files) {
    const folder = apart.includes(file) ? simulationUnit(dirname(file)) : areaOf(file)
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file])
  }
  return byFolder
}

/** The area of test/ a file belongs to (`test/http` for test/http/ops/metrics.ts), or the file itself in test/. */
export function areaOf(file: string): string {
  const parts = file.split('/')
  return parts.length > 2 ? parts.slice(0, 2).join('/') : file
}

/** The unit of the files of test/ itself that ran shorter than SHORT_MS last time. */
export const SHORT_FILES = 'test/ (short files)'

/** A file of test/ that took less than this last time runs with the other short ones (pack). */
export const SHORT_MS = 1500

/**
 * The units with the files of test/ itself that ran in less than SHORT_MS last time (`durations`)
 * made one, SHORT_FILES: most of such a file's time is its process starting. A file not timed yet
 * runs alone, as an end-to-end file may take long. The files of the pack keep their last durations.
 */
export function pack(
  units: readonly (readonly [string, string[]])[],
  durations: ReadonlyMap<string, number>,
): [string, string[]][] {
  const isShort = ([folder, files]: readonly [string, string[]]) =>
    files.length === 1 && folder === files[0] && (durations.get(folder) ?? SHORT_MS) < SHORT_MS
  const copy = (unit: readonly [string, string[]]): [string, string[]] => [unit[0], unit[1]]
  const short = units.filter(isShort)
  if (short.length < 2) return units.map(copy)
  return [...units.filter((u) => !isShort(u)).map(copy), [SHORT_FILES, short.flatMap((u) => u[1])]]
}

/**
 * Where the runner keeps what it learns between runs: each unit's last duration, TypeScript files
 * stripped of their types, and, without coverage, Node's compile cache.
 */
export const CACHE = join(ROOT, 'node_modules/.cache/run-suite')

/**
 * Gives the processes started with `env` (and theirs) the load hook of stripped-cache.js, which keeps
 * TypeScript files stripped of their types in the runner's cache.
 */
export function useStrippedCache(env: NodeJS.ProcessEnv, cache = join(CACHE, 'stripped')): void {
  const hook = `--import=${pathToFileURL(join(ROOT, 'test/helpers/stripped-cache.js')).href}`
  if (env.NODE_OPTIONS?.includes(hook)) return
  env.NODE_OPTIONS = env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${hook}` : hook
  env.JUDGE_TEST_STRIPPED = cache
}

/** The name a unit's result carries: its file when alone, else its folder with a slash. */
const unitName = ([folder, inFolder]: readonly [string, readonly string[]]) =>
  isNamed(folder) ? folder : inFolder.length === 1 ? inFolder[0] : `${folder}/`

/**
 * The order units start in, longest first so that none starts late and runs on alone: by the
 * milliseconds each took last time (`durations`, by unit name); a unit not timed yet (a fresh
 * clone, a new folder) by an estimate, its files at a second each, a file of test/ itself at six
 * (those drive servers and CLIs end to end), a simulation at five, ahead of timed units of the
 * same length.
 */
export function schedule(
  units: readonly (readonly [string, string[]])[],
  durations: ReadonlyMap<string, number> = new Map(),
): [string, string[]][] {
  const estimate = ([folder, inFolder]: readonly [string, readonly string[]]) =>
    isSimulations(folder)
      ? 5000 * inFolder.length
      : dirname(folder) === 'test' && folder.endsWith('.ts')
        ? 6000
        : 1000 * inFolder.length
  const weight = (unit: readonly [string, readonly string[]]) => durations.get(unitName(unit)) ?? estimate(unit) + 0.5
  return [...units]
    .map((u): [string, string[]] => [u[0], u[1]])
    .sort((a, b) => weight(b) - weight(a) || a[0].localeCompare(b[0]))
}

/** The durations of the last runs, by unit name; none when never written or unreadable. */
export function readDurations(file = join(CACHE, 'durations.json')): Map<string, number> {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>))
  } catch {
    return new Map()
  }
}

/**
 * The durations of the repository's record (SEED, written by `node test/helpers/run-suite.ts
 * --seed` from this machine's last runs), overridden by this clone's own: a fresh clone then
 * starts its longest units first as well, where an estimate from their files started the CLI
 * commands' folder (35 s) and the store-trouble tests (25 s) late enough to run on alone.
 */
export function knownDurations(own = join(CACHE, 'durations.json'), seed = SEED): Map<string, number> {
  return new Map([...readDurations(seed), ...readDurations(own)])
}

/** The repository's record of each unit's duration, for a clone that has none of its own. */
export const SEED = join(ROOT, 'test/helpers/durations.json')

/** The text of the repository's record: the durations of the units of `files` and of each file of test/ itself. */
export function seedText(
  durations: ReadonlyMap<string, number>,
  files: readonly string[],
  apart: readonly string[],
): string {
  const units = new Set([
    ...[...groups(files, apart)].map(unitName),
    ...files.filter((f) => dirname(f) === 'test'),
    SHORT_FILES,
  ])
  const kept = [...durations].filter(([unit]) => units.has(unit)).sort(([a], [b]) => a.localeCompare(b))
  return `${JSON.stringify(Object.fromEntries(kept.map(([unit, ms]) => [unit, Math.round(ms / 100) * 100])), null, 1)}\n`
}

/** Adds the durations of a run's passed units to those kept (a failed unit's time says little of the next run's). */
export function writeDurations(results: readonly FileResult[], file = join(CACHE, 'durations.json')): void {
  const kept = readDurations(file)
  for (const r of results) if (passed(r)) kept.set(r.file, Math.round(r.ms))
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(
    file,
    `${JSON.stringify(Object.fromEntries([...kept].sort(([a], [b]) => a.localeCompare(b))), null, 1)}\n`,
  )
}

/**
 * Runs each folder's files in one process, `jobs` processes at a time, in `schedule`'s order; a
 * folder that fails runs again a file at a time, to name the file that fails. The files' results
 * stand in for the folder's when one of them fails alone; when each passes alone, the folder's
 * failure stands, with a line in `notes` saying so. Results come back in path order.
 */
export async function runAll(
  files: readonly string[],
  jobs: number,
  timeoutMs: number,
  options: RunOptions = {},
  notes: string[] = [],
  durations: ReadonlyMap<string, number> = new Map(),
  apart: readonly string[] = [],
): Promise<FileResult[]> {
  const units = schedule(pack([...groups(files, apart)], durations), durations)
  const results: FileResult[] = []
  let next = 0
  const worker = async () => {
    while (next < units.length) {
      const [folder, inFolder] = units[next++]
      const unitOptions = isSimulations(folder) ? { ...options, coverage: false } : options
      const together = await runFile(
        inFolder.length === 1 ? inFolder[0] : inFolder,
        timeoutMs * inFolder.length,
        unitOptions,
        unitName([folder, inFolder]),
      )
      if (inFolder.length === 1 || passed(together)) {
        results.push(together)
        continue
      }
      const alone = await Promise.all(inFolder.map((f) => runFile(f, timeoutMs, unitOptions)))
      if (!alone.every(passed)) {
        results.push(...alone)
        continue
      }
      // Each passes alone, and together they fail: state one file leaves behind (a global, a file,
      // a server still listening) or an order one needs. A bug all the same, and the run's failure.
      results.push(together)
      notes.push(
        `${together.file} failed together (${together.timedOut ? 'timed out' : `exit ${together.code}`}) though each file passes alone: a file depends on what another leaves behind or on their order`,
      )
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, units.length) }, worker))
  return results.sort((a, b) => a.file.localeCompare(b.file))
}

/** How a suite runs: where and with which loader (RunOptions), how many processes at once, each file's time limit, and where durations are kept. */
export interface SuiteOptions extends RunOptions {
  readonly jobs?: number
  readonly timeoutMs?: number
  readonly durations?: string
}

/** The outcome of a suite: its exit status (1 when any unit failed) and its report. */
export interface SuiteOutcome {
  readonly code: 0 | 1
  readonly text: string
}

/**
 * Runs the test files under `paths` (every test when none) as `npm test` does, and keeps the
 * durations of the units that passed for the next run. A folder that fails together fails the
 * suite, whether or not its files pass alone.
 */
export async function runSuite(paths: readonly string[], options: SuiteOptions = {}): Promise<SuiteOutcome> {
  const {
    root = ROOT,
    // Test files wait on servers and child processes as much as they compute: one more than the cores keeps both busy.
    jobs = Number(process.env.JUDGE_TEST_JOBS ?? availableParallelism() + 1),
    timeoutMs = Number(process.env.JUDGE_TEST_TIMEOUT_S ?? 120) * 1000,
    durations = join(CACHE, 'durations.json'),
  } = options
  const notes: string[] = []
  // The simulations run apart from their areas, a folder's in a process (under c8 without coverage):
  // in one process with test/core/, test:slow's would run one after another for minutes.
  const files = testFiles(paths, root)
  const results = await runAll(files, jobs, timeoutMs, options, notes, knownDurations(durations), simulations(root))
  writeDurations(results, durations)
  return {
    code: results.every(passed) ? 0 : 1,
    text: notes.map((n) => `# ${n}\n`).join('') + report(results),
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--seed') {
  // The record a fresh clone schedules by, to the tenth of a second: the record updated by this
  // clone's durations, for the units there are now and each file of test/ itself (a short one runs
  // in the pack, and keeps the duration it had alone).
  writeFileSync(SEED, seedText(knownDurations(), testFiles(['test']), simulations()))
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Without coverage, test processes keep their compiled modules for the next start. Under c8
  // (NODE_V8_COVERAGE) they do not: V8 counts fewer branches in code read from the cache.
  if (process.env.NODE_V8_COVERAGE === undefined) process.env.NODE_COMPILE_CACHE ??= join(CACHE, 'compile')
  // With or without c8, every process of the run reads TypeScript stripped once (stripped-cache.js).
  useStrippedCache(process.env)
  const { code, text } = await runSuite(process.argv.slice(2))
  process.stdout.write(text)
  process.exitCode = code
}
