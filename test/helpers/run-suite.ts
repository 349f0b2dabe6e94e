import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// The runner of `npm test` and `npm run test:slow`. Each test file is a tap test that runs on its
// own (`node test/x.ts` prints its TAP). Starting a process with tap and its mocking loader costs
// about 0.5 s of CPU, which for 200 files was most of the suite on two cores; so the files of one
// folder run in one process, one after another (run-group.ts), the folders several at once. A
// folder that fails is run again a file at a time, so that the report names the file and shows
// its whole TAP; one that fails only together says so. Quiet while everything passes.

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

/** Where a file is run from, and tap's mocking loader (the project's by default). */
export interface RunOptions {
  readonly root?: string
  readonly mockLoader?: string
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
  const { root = ROOT, mockLoader = join(ROOT, 'node_modules/@tapjs/mock/dist/esm/import.mjs') } = options
  const started = performance.now()
  const mock = pathToFileURL(mockLoader).href
  const args = typeof file === 'string' ? [file] : [join(ROOT, 'test/helpers/run-group.ts'), ...file]
  // Its own process group, so that a timeout also ends the servers and CLIs it started.
  // tap's own limit on the process (30 s unless told) is the runner's, so that only one applies.
  const env = { ...process.env, TAP_TIMEOUT: String(Math.ceil(timeoutMs / 1000)) }
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
 * The units of one process each: the files of a folder below test/ together, and each file of
 * test/ itself alone, since those drive servers, CLIs and engines end to end for seconds each.
 */
export function groups(files: readonly string[]): Map<string, string[]> {
  const byFolder = new Map<string, string[]>()
  for (const file of files) {
    const folder = dirname(file) === 'test' ? file : dirname(file)
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file])
  }
  return byFolder
}

/**
 * Runs each folder's files in one process, `jobs` processes at a time, the largest folders
 * first; a folder that fails runs again a file at a time, and its files' results stand in for it
 * (with a line in `notes` when each passes alone). Results come back in path order.
 */
export async function runAll(
  files: readonly string[],
  jobs: number,
  timeoutMs: number,
  options: RunOptions = {},
  notes: string[] = [],
): Promise<FileResult[]> {
  const units = [...groups(files)].sort((a, b) => b[1].length - a[1].length)
  const results: FileResult[] = []
  let next = 0
  const worker = async () => {
    while (next < units.length) {
      const [folder, inFolder] = units[next++]
      const together = await runFile(
        inFolder.length === 1 ? inFolder[0] : inFolder,
        timeoutMs * inFolder.length,
        options,
        inFolder.length === 1 ? inFolder[0] : `${folder}/`,
      )
      if (inFolder.length === 1 || passed(together)) {
        results.push(together)
        continue
      }
      // A file passes as it always has, alone; together is only quicker. What fails together but
      // not alone (a late assertion, a signal to its own process) is shown, not counted.
      const alone = await Promise.all(inFolder.map((f) => runFile(f, timeoutMs, options)))
      results.push(...alone)
      if (alone.every(passed))
        notes.push(
          `${folder}/ failed together (${together.timedOut ? 'timed out' : `exit ${together.code}`}) but each file passes alone`,
        )
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, units.length) }, worker))
  return results.sort((a, b) => a.file.localeCompare(b.file))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = testFiles(process.argv.slice(2))
  // Test files wait on servers and child processes as much as they compute: one more than the cores keeps both busy.
  const jobs = Number(process.env.JUDGE_TEST_JOBS ?? availableParallelism() + 1)
  const timeoutMs = Number(process.env.JUDGE_TEST_TIMEOUT_S ?? 120) * 1000
  const notes: string[] = []
  const results = await runAll(files, jobs, timeoutMs, {}, notes)
  process.stdout.write(notes.map((n) => `note: ${n}\n`).join('') + report(results))
  process.exitCode = results.every(passed) ? 0 : 1
}
