import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './helpers/cli.ts'
import { reachable, type Reach } from './helpers/reachable.ts'

// What each entry point loads, counted by a module hook in the child process that runs it
// (test/helpers/module-record.ts): the source modules and their lines of code (blank lines and
// comments alone not counted: the budgets measure the code an auditor reads, on the formatted
// tree), the package modules and the Node built-ins. And what it can reach: its static import
// graph, late loads (src/lazy.ts) followed, into the packages (test/helpers/reachable.ts); what
// it loads must be within what it can reach, so that the graph misses no edge.
// docs/architecture.md gives these figures; `node test/load-budget.ts` prints them.

const RECORDER = resolve(ROOT, 'test/helpers/module-record.ts')
const source = (file: string) => pathToFileURL(resolve(ROOT, file)).href
const ROW = { message: 'WIN a prize! Text 80082 now' }

/** What one process loaded. */
interface Loaded {
  /** Source files, as `src/…`, sorted. */
  readonly modules: readonly string[]
  /** Lines of code: the formatted files' lines less blank lines and lines of comment alone. */
  readonly lines: number
  /** Every line of the files, comments and blank lines included. */
  readonly allLines: number
  /** Node built-ins, without the `node:` prefix, sorted. */
  readonly builtins: readonly string[]
  /** Package files, as `node_modules/…`, sorted. */
  readonly packages: readonly string[]
}

/** The figures of what a process loaded: its source modules and their lines, and the built-ins. */
function loadedFrom(record: string): Loaded {
  const urls = readFileSync(record, 'utf8').split('\n')
  const prefix = pathToFileURL(join(ROOT, 'src')).href + '/'
  const modules = urls
    .filter((url) => url.startsWith(prefix))
    .map((url) => `src/${url.slice(prefix.length)}`)
    .sort()
  const builtins = [
    ...new Set(urls.filter((url) => url.startsWith('node:')).map((url) => url.slice('node:'.length))),
  ].sort()
  const packages = urls
    .filter((url) => url.startsWith('file:') && url.includes('/node_modules/'))
    .map((url) => url.slice(url.indexOf('/node_modules/') + 1))
    .sort()
  return { modules, ...linesOf(modules), builtins, packages }
}

/** The lines of code of source files (see isCode), and all their lines. */
function linesOf(modules: readonly string[]): { lines: number; allLines: number } {
  const texts = modules.map((file) => readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n'))
  const lines = texts.reduce((sum, text) => sum + text.filter(isCode).length, 0)
  const allLines = texts.reduce((sum, text) => sum + text.length, 0)
  return { lines, allLines }
}

/** A line of code: not blank, and not a comment alone (a line starting //, /* or *). */
function isCode(line: string): boolean {
  const text = line.trim()
  return text !== '' && !/^(\/\/|\/\*|\*)/.test(text)
}

/** Runs `args` with the recorder until it exits by itself, or until `ready` says so on its standard error (then SIGTERM). */
function runRecorded(
  dir: string,
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  ready?: (stderr: string) => Promise<void> | null,
): Promise<Loaded> {
  const record = join(dir, `${name}.modules`)
  const child = spawn(process.execPath, ['--import', RECORDER, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MODULE_RECORD: record, ENGINE: 'simulated', ...env },
  })
  let stderr = ''
  let stdout = ''
  let asked: Promise<void> | null = null
  return new Promise((done, fail) => {
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => {
      stderr += d
      if (asked || !ready) return
      asked = ready(stderr)
      asked?.then(
        () => child.kill('SIGTERM'),
        (error) => (child.kill('SIGKILL'), fail(error)),
      )
    })
    child.on('error', fail)
    child.on('close', (code) =>
      code === 0 ? done(loadedFrom(record)) : fail(new Error(`${name} exited ${code}: ${stdout}${stderr}`)),
    )
  })
}

/** A copy of the example project in a fresh folder, its store created there on the first answer. */
function example(t: Test): string {
  const dir = t.testdir({})
  cpSync(resolve(ROOT, 'examples/sms'), join(dir, 'sms'), { recursive: true, filter: (f) => !f.includes('.judge/') })
  return dir
}

/** Asks POST /v1/judge of the server whose log line names its URL, once it is listening. */
function judgeOnceListening(stderr: string): Promise<void> | null {
  const url = /listening on (http:\/\/\S+),/.exec(stderr)?.[1]
  if (!url) return null
  return fetch(`${url}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'sms/spam.judge.yaml', row: ROW }),
  }).then(async (res) => {
    if (res.status !== 200) throw new Error(`POST /v1/judge answered ${res.status}: ${await res.text()}`)
  })
}

/** Prints what an entry loaded and, when given, what it can reach; holds the first within the second. */
function report(t: Test, entry: string, loaded: Loaded, reach?: Reach): void {
  t.comment(
    `${entry}: loads ${loaded.modules.length} source modules, ${loaded.lines} lines of code (${loaded.allLines} with comments and blank lines), ${loaded.packages.length} package modules; built-ins: ${loaded.builtins.join(', ')}`,
  )
  if (reach === undefined) return
  reaches(t, entry, reach)
  t.same(
    loaded.modules.filter((f) => !reach.modules.includes(f)),
    [],
    'every source module it loads is one it can reach',
  )
  t.same(
    loaded.packages.filter((f) => !reach.packages.includes(f)),
    [],
    'every package module it loads is one it can reach',
  )
}

/** Prints what an entry can reach. */
function reaches(t: Test, entry: string, reach: Reach): void {
  const { lines, allLines } = linesOf(reach.modules)
  t.comment(
    `${entry}: can reach ${reach.modules.length} source modules, ${lines} lines of code (${allLines} with comments and blank lines), ${reach.packages.length} package modules; built-ins: ${reach.builtins.join(', ')}`,
  )
}

const CLI_ONLY = ['child_process', 'readline']
const HTTP_FOLDERS = ['src/cli/', 'src/http/pages/']

t.test(
  'judge-rows/judge loads at most 55 source modules and 3,525 lines, and no git, data-file or server code',
  async (t) => {
    const dir = example(t)
    writeFileSync(
      join(dir, 'judge.mjs'),
      `import { judge } from ${JSON.stringify(source('src/judge.ts'))}
const answers = await judge('sms/spam.judge.yaml', { message: process.argv[2] })
if (!answers.is_spam) throw new Error('no answer')
`,
    )
    // The first call creates the store, and so loads its migrations; every later call opens it as it is.
    const first = await runRecorded(dir, 'judge-first', ['judge.mjs', ROW.message], {})
    const reach = reachable(['src/judge.ts'])
    report(t, 'judge-rows/judge, the first judge() call (creating the store)', first, reach)
    t.ok(first.modules.includes('src/adapters/sqlite/sqlite-schema.ts'), 'creating the store loads the migrations')
    const loaded = await runRecorded(dir, 'judge', ['judge.mjs', 'Are we still on for dinner?'], {})
    report(t, 'judge-rows/judge, one judge() call (a store that exists, a row not yet answered)', loaded, reach)
    t.same(
      reach.modules.filter((f) => f.startsWith('src/http/') || f.startsWith('src/cli/')),
      [],
      'it cannot reach the server or the CLI',
    )
    // 55: the 50 of judging, src/lazy.ts (the one late loader, of the engine and the migrations),
    // the daily spend cap's code, imported with judging rather than loaded late to save one,
    // src/supported-node.ts, which stops an old Node before anything needs node:sqlite, and a jury's
    // model id (src/core/jury/jurors.ts) and its jurors' engine settings (src/config-jurors.ts), read
    // for every spec and configuration; a jury's asking and fit load with the first jury judged.
    t.ok(loaded.modules.length <= 55, `${loaded.modules.length} source modules`)
    t.ok(loaded.lines <= 3525, `${loaded.lines} lines`)
    for (const { builtins, modules } of [first, loaded]) {
      t.same(
        builtins.filter((b) => [...CLI_ONLY, 'cluster', 'http'].includes(b)),
        [],
        'no child_process, readline, cluster or http',
      )
      t.same(
        modules.filter((f) => f.startsWith('src/http/') || f.startsWith('src/cli/')),
        [],
        'nothing of the server or the CLI',
      )
      t.same(
        modules.filter((f) => /^src\/adapters\/(openai|system-one)\//.test(f)),
        [],
        'no engine adapter but the configured one',
      )
    }
  },
)

t.test(
  'node src/main.ts with one worker loads at most 140 source modules and 10,000 lines, one engine adapter and no batch use case',
  async (t) => {
    const dir = example(t)
    const loaded = await runRecorded(
      dir,
      'main',
      [resolve(ROOT, 'src/main.ts')],
      { JUDGE_PROJECTS: dir, PORT: '0', HOST: '127.0.0.1' },
      judgeOnceListening,
    )
    const reach = reachable(['src/main.ts'])
    report(t, 'node src/main.ts, listening and one POST /v1/judge', loaded, reach)
    t.same(
      reach.modules.filter((f) => f.startsWith('src/cli/')),
      [],
      'it cannot reach the CLI',
    )
    t.ok(loaded.modules.length <= 140, `${loaded.modules.length} source modules`)
    t.ok(loaded.lines <= 10000, `${loaded.lines} lines`)
    t.same(
      loaded.builtins.filter((b) => [...CLI_ONLY, 'cluster'].includes(b)),
      [],
      'no child_process, readline or cluster',
    )
    t.same(
      loaded.modules.filter((f) => HTTP_FOLDERS.some((folder) => f.startsWith(folder))),
      [],
      'no page before one is asked for, nothing of the CLI',
    )
    t.same(
      loaded.modules.filter((f) => /^src\/adapters\/(openai|system-one)\//.test(f)),
      [],
      'the simulated engine alone',
    )
    t.same(
      loaded.modules.filter((f) =>
        /^src\/app\/(plan|run|record-runs|replay|compare|compare-file|forget|test-judgments)\.ts$/.test(f),
      ),
      [],
      'no batch use case',
    )
  },
)

t.test(
  'judge-rows/server loads at most 140 source modules and 10,000 lines, and a handler serving POST /v1/judge alone loads no page',
  async (t) => {
    const dir = example(t)
    writeFileSync(
      join(dir, 'server.mjs'),
      `import { JUDGE_ROUTES, readConfig, startServer } from ${JSON.stringify(source('src/server.ts'))}
const config = readConfig({ ...process.env, JUDGE_PROJECTS: process.cwd() }, process.cwd())
const server = await startServer(config, { log: () => {}, ...(process.argv[2] === 'judge-only' ? { routes: JUDGE_ROUTES } : {}) })
const res = await fetch(server.url + '/v1/judge', { method: 'POST', body: JSON.stringify({ path: 'sms/spam.judge.yaml', row: ${JSON.stringify(ROW)} }) })
if (res.status !== 200) throw new Error('POST /v1/judge answered ' + res.status)
if (process.argv[2] === 'page') await (await fetch(server.url + '/runs?path=sms/spam.judge.yaml')).text()
await server.stop()
`,
    )
    const env = { PORT: '0', HOST: '127.0.0.1' }
    // A page first, which also creates the store: the figures below are of a store that exists.
    const paged = await runRecorded(dir, 'page', ['server.mjs', 'page'], env)
    t.ok(paged.modules.includes('src/http/pages/runs.ts'), 'a page is loaded once asked for')
    const reach = reachable(['src/server.ts'])
    report(t, 'judge-rows/server, one POST /v1/judge then GET /runs', paged, reach)
    t.same(
      reach.modules.filter((f) => f.startsWith('src/cli/')),
      [],
      'it cannot reach the CLI',
    )
    const served = await runRecorded(dir, 'server', ['server.mjs'], env)
    report(t, 'judge-rows/server, startServer and one POST /v1/judge', served, reach)
    t.ok(served.modules.length <= 140, `${served.modules.length} source modules`)
    t.ok(served.lines <= 10000, `${served.lines} lines`)
    t.same(
      served.builtins.filter((b) => [...CLI_ONLY, 'cluster'].includes(b)),
      [],
      'no child_process, readline or cluster',
    )
    t.same(
      served.modules.filter((f) => HTTP_FOLDERS.some((folder) => f.startsWith(folder))),
      [],
      'no page before one is asked for',
    )

    const judgeOnly = await runRecorded(dir, 'judge-only', ['server.mjs', 'judge-only'], env)
    report(t, 'judge-rows/server with routes: JUDGE_ROUTES, one POST /v1/judge', judgeOnly, reach)
    t.same(
      judgeOnly.modules.filter((f) => /^src\/http\/(pages|views)\//.test(f)),
      [],
      'no page and no page data',
    )
    t.ok(judgeOnly.modules.length <= served.modules.length, 'no more than the whole server')
    t.comment(
      `the whole server beyond JUDGE_ROUTES: ${served.modules.filter((f) => !judgeOnly.modules.includes(f)).join(', ')}`,
    )
  },
)

t.test('node src/cli.ts: each command can reach its own code alone, and plan and run load within it', async (t) => {
  const commands = readdirSync(join(ROOT, 'src/cli/commands'))
    .filter((file) => readFileSync(join(ROOT, 'src/cli/run-cli.ts'), 'utf8').includes(`'./commands/${file}'`))
    .map((file) => file.replace(/\.ts$/, ''))
  t.ok(commands.length >= 15, `${commands.length} commands`)
  const reachOf = (command: string) =>
    reachable(
      ['src/cli.ts'],
      (from, to) =>
        from === 'src/cli/run-cli.ts' && to.startsWith('src/cli/commands/') && to !== `src/cli/commands/${command}.ts`,
    )
  for (const command of commands) {
    const reach = reachOf(command)
    reaches(t, `judge ${command}`, reach)
    const others = commands.filter((c) => c !== command).map((c) => `src/cli/commands/${c}.ts`)
    t.same(
      reach.modules.filter((f) => others.includes(f)),
      [],
      `judge ${command} cannot reach another command`,
    )
    if (command !== 'serve')
      t.same(
        reach.modules.filter((f) => f.startsWith('src/http/')),
        [],
        `judge ${command} cannot reach the server`,
      )
  }
  const dir = example(t)
  for (const command of ['plan', 'run']) {
    const loaded = await runRecorded(dir, command, [resolve(ROOT, 'src/cli.ts'), command, 'sms'], {})
    report(t, `judge ${command} sms`, loaded, reachOf(command))
  }
})
