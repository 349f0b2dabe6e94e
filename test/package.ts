import t from 'tap'
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ROOT } from './helpers/cli.ts'

// The package as a user gets it: packed, installed from the tarball into a fresh folder (its
// dependencies from the npm registry or npm's cache), and run with Node 24 from that folder.

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
const FIXTURE = join(import.meta.dirname, 'fixtures/sms/sms.tsv')
// The pinned Node first on PATH, so that `#!/usr/bin/env node` in the installed bin finds it.
const PATH = `${dirname(process.execPath)}:${process.env.PATH}`

/**
 * Runs a program as a user would. The test runner passes its hooks to child processes in
 * NODE_OPTIONS; `env -u` leaves them out, as TypeScript's compiler (npm pack's build) fails under them.
 */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): SpawnSyncReturns<string> {
  // npm's install reaches the registry, which can take minutes on a slow network: `npm run test:slow` allows 15.
  return spawnSync('env', ['-u', 'NODE_OPTIONS', command, ...args], {
    cwd,
    encoding: 'utf8',
    env: { HOME: process.env.HOME ?? '', PATH, ...NETWORK, ...env },
    timeout: 600_000,
  })
}

/** What a user's shell gives npm to reach the registry: a proxy, and the certificates that trust it. */
const NETWORK = Object.fromEntries(
  Object.entries(process.env).filter(
    (e): e is [string, string] =>
      e[1] !== undefined &&
      /^(https?_proxy|no_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir|npm_config_registry)$/i.test(e[0]),
  ),
)

// The library in another server: judge() on a row, then the handler mounted beside a route of its own.
const SERVER = `import { createServer } from 'node:http'
import { createHandler, judge, readConfig } from 'judge-rows'

const config = readConfig({ ...process.env, JUDGE_PROJECTS: process.cwd() }, process.cwd())
const row = { message: 'Ok lar... Joking wif u oni...' }
const library = await judge('sms.judge.yaml', row, { config })
const handler = createHandler(config, { log: () => {} })
const server = createServer((req, res) => (req.url === '/health' ? res.end('ok') : handler(req, res)))
await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
const base = 'http://127.0.0.1:' + server.address().port
const health = await (await fetch(base + '/health')).text()
const res = await fetch(base + '/v1/judge', { method: 'POST', body: JSON.stringify({ path: 'sms.judge.yaml', row }) })
console.log(JSON.stringify({ library, health, status: res.status, body: await res.json() }))
await handler.close()
server.close()
`

// The subpath entries: judge() alone, and the server serving judgments alone (docs/architecture.md).
const SUBPATHS = `import { createServer } from 'node:http'
import { judge, readConfig } from 'judge-rows/judge'
import { createHandler, JUDGE_ROUTES } from 'judge-rows/server'
import * as root from 'judge-rows'

const config = readConfig({ ...process.env, JUDGE_PROJECTS: process.cwd() }, process.cwd())
const row = { message: 'Ok lar... Joking wif u oni...' }
const library = await judge('sms.judge.yaml', row, { config })
const handler = createHandler(config, { log: () => {}, routes: JUDGE_ROUTES })
const server = createServer((req, res) => handler(req, res, () => res.writeHead(418).end()))
await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
const base = 'http://127.0.0.1:' + server.address().port
const res = await fetch(base + '/v1/judge', { method: 'POST', body: JSON.stringify({ path: 'sms.judge.yaml', row }) })
const page = await fetch(base + '/runs')
console.log(JSON.stringify({ library, status: res.status, body: await res.json(), page: page.status, same: root.judge === judge && root.createHandler === createHandler }))
await handler.close()
server.close()
`

// A TypeScript consumer of the library's types.
const TYPED = `import { createServer } from 'node:http'
import { createHandler, createRuntime, judge, loadProject, planRows, readConfig, type Answers, type Engine, type JudgmentPlan } from 'judge-rows'
import { judge as judgeAlone, type Answers as JudgedAnswers, type JudgeOptions } from 'judge-rows/judge'
import { createHandler as handlerAlone, JUDGE_ROUTES, type JudgeHandler } from 'judge-rows/server'

const config = readConfig(process.env, process.cwd())
const answers: Answers = await judge('sms.judge.yaml', { message: 'hi' }, { config })
const label: string = answers.relevant.label
const engine: Engine | null = null
const runtime = createRuntime(config, { engine })
const project = loadProject('sms.judge.yaml')
const plans: JudgmentPlan[] = await planRows(runtime, project, project.selected, { kind: 'file', file: 'sms.tsv', label: 'sms.tsv' })
createServer(createHandler(config)).close()
const options: JudgeOptions = { config, maxCost: 0.5 }
const alone: JudgedAnswers = await judgeAlone('sms.judge.yaml', { message: 'hi' }, options)
const handler: JudgeHandler = handlerAlone(config, { routes: JUDGE_ROUTES })
await handler.close()
console.log(label, plans.length, alone.relevant.label)
`

t.test(
  'the packed package installs, imports, mounts in node:http and runs its CLI, with no test or bench file',
  async (t) => {
    const dir = t.testdir({
      consumer: { 'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }) },
    })
    const consumer = join(dir, 'consumer')
    const packed = run('npm', ['pack', '--json', '--pack-destination', dir], ROOT)
    t.equal(packed.status, 0, packed.stderr)
    const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[]
    const install = installSection()
    t.match(install, /\(cd judge && npm ci && npm pack\)/, 'the README packs the clone, as this test does')
    t.match(install, `npm install ./judge/${filename}`, 'and installs the tarball npm pack writes')
    t.notMatch(
      install.replace(/Once it is published, `npm install judge-rows`/, ''),
      /npm install judge-rows/,
      'the registry name only for when it is published',
    )
    const paths = files.map((f) => f.path)
    t.same(
      paths.filter((p) => /^(test|bench|src|examples|\.ci)\/|\.tap|coverage/.test(p)),
      [],
      'no test, bench, source or CI file',
    )
    t.ok(
      [
        'dist/index.js',
        'dist/index.d.ts',
        'dist/judge.js',
        'dist/judge.d.ts',
        'dist/server.js',
        'dist/server.d.ts',
        'dist/cli.js',
        'bin/judge.js',
        'package.json',
        'README.md',
        'LICENSE',
      ].every((p) => paths.includes(p)),
      'the compiled code, its types and the bin',
    )

    const installed = run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, filename)],
      consumer,
    )
    t.equal(installed.status, 0, installed.stderr)
    const judge = join(consumer, 'node_modules/.bin/judge')
    t.match(run(judge, ['--version'], consumer), { status: 0, stdout: `${VERSION}\n` })
    t.match(
      run('npx', ['judge', '--help'], consumer),
      { status: 0, stdout: /^usage: judge <command>/ },
      'npx finds the installed command',
    )

    const old = oldNode()
    if (old === null) t.comment('no Node older than 24 on this machine: the library on an old Node is not tried')
    else {
      // The library on an old Node: each entry stops with the command's sentence, before node:sqlite.
      const said = spawnSync(old, [judge, '--version'], { cwd: consumer, encoding: 'utf8' }).stderr
      t.match(said, /^judge needs Node 24 or newer \(it uses node:sqlite\)/)
      for (const entry of ['judge-rows', 'judge-rows/judge', 'judge-rows/server']) {
        const script = `import(${JSON.stringify(entry)}).then(() => console.log('loaded'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`
        const loaded = spawnSync(old, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' })
        t.same(JSON.parse(loaded.stdout), { message: said.trimEnd() }, `${entry} on Node ${old}`)
      }
    }

    writeFileSync(join(consumer, 'sms.tsv'), `label\tmessage\n${readFileSync(FIXTURE, 'utf8')}`)
    const init = run(judge, ['init', 'sms.tsv'], consumer)
    t.equal(init.status, 0, init.stderr)
    const next = [...init.stdout.matchAll(/^  (.*node_modules\/\.bin\/judge (?:plan|run|serve).*)$/gm)].map((m) => m[1])
    t.same(next, [
      'node_modules/.bin/judge plan sms.judge.yaml',
      'ENGINE=simulated node_modules/.bin/judge run sms.judge.yaml',
      'ENGINE=simulated node_modules/.bin/judge serve',
    ])
    t.match(
      run('sh', ['-c', next[0]], consumer),
      { status: 0, stdout: /sms\s+40\s+40\s+0\s+0\s+160\s+40\s/ },
      'plan, as printed',
    )
    t.match(
      run('sh', ['-c', next[1]], consumer),
      { status: 0, stdout: /sms: 40 rows, 0 answers cached, 160 asked in 40 requests/ },
      'run, as printed',
    )

    // The library, in a plain node:http server that answers other paths itself.
    writeFileSync(join(consumer, 'server.mjs'), SERVER)
    const served = run(process.execPath, ['server.mjs'], consumer, { ENGINE: 'simulated' })
    t.equal(served.status, 0, served.stderr)
    const result = JSON.parse(served.stdout)
    t.match(result, {
      health: 'ok',
      status: 200,
      body: { relevant: { cached: true }, topic: { cached: true }, priority: { cached: true } },
    })
    t.same(result.library.relevant.label, result.body.relevant.label, "judge() and the handler give the store's answer")

    // The subpaths: judge-rows/judge and judge-rows/server, the same functions as the root's.
    writeFileSync(join(consumer, 'subpaths.mjs'), SUBPATHS)
    const subpaths = run(process.execPath, ['subpaths.mjs'], consumer, { ENGINE: 'simulated' })
    t.equal(subpaths.status, 0, subpaths.stderr)
    t.match(
      JSON.parse(subpaths.stdout),
      { status: 200, body: { relevant: { cached: true } }, page: 418, same: true },
      'POST /v1/judge alone, other paths passed on',
    )

    // judge test, on the answer key init wrote from the label column.
    const tested = run(judge, ['test', 'sms.judge.yaml', '--json'], consumer, { ENGINE: 'simulated' })
    t.equal(tested.status, 0, tested.stderr)
    t.equal(JSON.parse(tested.stdout).sms.label.counted, 40, 'every key row scored, from the store')

    // The declarations: a TypeScript consumer type-checks against the installed package.
    writeFileSync(join(consumer, 'consumer.ts'), TYPED)
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          module: 'nodenext',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        include: ['consumer.ts'],
      }),
    )
    t.match(run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', '.'], consumer), { status: 0, stdout: '' }, 'typed')
    writeFileSync(
      join(consumer, 'wrong.ts'),
      "import { judge } from 'judge-rows'\nimport { createHandler } from 'judge-rows/server'\nconst n: number = await judge('x', {})\nconst h: string = createHandler({} as never)\n",
    )
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      readFileSync(join(consumer, 'tsconfig.json'), 'utf8').replace('consumer.ts', 'wrong.ts'),
    )
    t.match(
      run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', '.'], consumer),
      {
        status: 1,
        stdout:
          /wrong\.ts.*Type 'Answers' is not assignable to type 'number'[\s\S]*wrong\.ts.*Type 'JudgeHandler' is not assignable to type 'string'/,
      },
      "and the types say something, the subpaths' too",
    )

    const serve = await serveAsPrinted(next[2], consumer)
    t.teardown(serve.stop)
    const res = await fetch(`${serve.url}/v1/judge`, {
      method: 'POST',
      body: JSON.stringify({ path: 'sms.judge.yaml', row: { message: 'Ok lar... Joking wif u oni...' } }),
    })
    t.match(await res.json(), { relevant: { cached: true } }, 'serve, as printed, answers from the store')
  },
)

t.test('the package installs from a git URL, built by npm through prepare, as the README says', async (t) => {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim()
  t.match(installSection(), /npm install git\+<repository-url>/)
  const dir = t.testdir({ 'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }) })
  const installed = run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', `git+file://${ROOT}#${head}`],
    dir,
  )
  t.equal(installed.status, 0, installed.stderr)
  t.match(
    run(join(dir, 'node_modules/.bin/judge'), ['--version'], dir),
    { status: 0, stdout: `${VERSION}\n` },
    'the installed command runs from the built dist/',
  )
})

/** The README's Install section. */
function installSection(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  return readme.slice(readme.indexOf('## Install'), readme.indexOf('## Try it on your own data'))
}

t.test(
  'the bin refuses Node before 24 with a message saying what to do',
  { skip: oldNode() ? false : 'no Node older than 24 on this machine' },
  async (t) => {
    const result = spawnSync(oldNode()!, [join(ROOT, 'bin/judge.js'), '--version'], { encoding: 'utf8' })
    t.equal(result.status, 2)
    t.match(
      result.stderr,
      /^judge needs Node 24 or newer \(it uses node:sqlite\); this is Node \d+\.[\d.]+ .*\nInstall Node 24/,
    )
  },
)

function oldNode(): string | null {
  const found = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' })
  return found.status === 0 && Number(/^v(\d+)/.exec(found.stdout)?.[1]) < 24 ? '/usr/bin/node' : null
}

/** Runs a printed serve command with a free port, until the test stops it. */
function serveAsPrinted(line: string, cwd: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn('env', ['-u', 'NODE_OPTIONS', 'sh', '-c', line], {
    cwd,
    env: { PATH, PORT: '0' },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const stop = () => void process.kill(-child.pid!, 'SIGTERM')
  let log = ''
  return new Promise((done, fail) => {
    child.stderr!.on('data', (d) => {
      log += d
      const url = /listening on (http:\/\/\S+),/.exec(log)?.[1]
      if (url) done({ url, stop })
    })
    child.on('exit', (code) => fail(new Error(`serve exited ${code}: ${log}`)))
  })
}
