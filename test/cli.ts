import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { ROOT, spawnCli, startCli } from './helpers/cli.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { smsCsv, smsMessages } from './helpers/sms.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

t.test('node src/cli.ts runs as a user would, with exit statuses and no sqlite warning', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(20) })
  const engine = await startSystemOneServer({ expectKey: 'k' })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  const run = await spawnCli(['run', 'spam.judge.yaml', '--data', 'messages.csv'], env, dir)
  t.equal(run.code, 0, run.stderr)
  t.match(run.stdout, /spam: 20 rows/)
  t.notMatch(run.stderr, /ExperimentalWarning/)
  const plan = await spawnCli(['plan', 'spam.judge.yaml'], env, dir)
  t.equal(plan.code, 2)
  t.match(plan.stderr, /no data file: give --data FILE or set data: in the spec/)
  const help = await spawnCli(['--help'], {}, dir)
  t.equal(help.code, 0)
  t.match(help.stdout, /usage: judge <command>/)
})

t.test(
  "the CLI keeps its modules, stripped and compiled, in Node's compile cache for the next start, unless NODE_DISABLE_COMPILE_CACHE is set",
  async (t) => {
    const dir = t.testdir({ cached: {}, off: {} })
    const files = (name: string) => readdirSync(resolve(dir, name), { recursive: true }).map(String)
    // The cache's default folder is node-compile-cache in the temporary folder, which TMPDIR moves.
    const first = await spawnCli(['--help'], { TMPDIR: resolve(dir, 'cached') }, dir)
    t.equal(first.code, 0, first.stderr)
    t.ok(files('cached').filter((f) => f.startsWith('node-compile-cache/')).length > 10, 'the modules are cached')
    const again = await spawnCli(
      ['--help'],
      { TMPDIR: resolve(dir, 'cached'), NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      dir,
    )
    t.equal(again.code, 0)
    t.match(
      again.stderr,
      /transpile cache for StrippedTypeScript \S+\/src\/cli\/run-cli\.ts\.\.\.success/,
      'the next start reads the stripped source back',
    )
    const off = await spawnCli(['--help'], { TMPDIR: resolve(dir, 'off'), NODE_DISABLE_COMPILE_CACHE: '1' }, dir)
    t.equal(off.code, 0, off.stderr)
    t.same(files('off'), [], 'nothing is cached when it is turned off')
  },
)

t.test(
  "the judge command of a clone runs the source, and from its second start never loads Node's type stripper, which node src/cli.ts loads each time",
  async (t) => {
    const dir = t.testdir({})
    // A preload that says, at exit, whether Node loaded its type stripper (amaro) into the process.
    const probe = `import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(2, 'stripper loaded: ' + process.moduleLoadList.some((m) => m.includes('amaro')) + '\\n'))`
    const start = (entry: string, env: Record<string, string> = {}) =>
      spawnSync(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, resolve(ROOT, entry), '--version'],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, TMPDIR: dir, ...env },
        },
      )
    const first = start('bin/judge.js')
    t.equal(first.status, 0, first.stderr)
    t.match(first.stdout, /^\d+\.\d+\.\d+/)
    t.match(first.stderr, 'stripper loaded: true', 'the first start strips the source')
    const again = start('bin/judge.js', { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    t.match(
      again.stderr,
      /transpile cache for StrippedTypeScript \S+\/src\/cli\.ts\.\.\.success/,
      'the source, src/cli.ts included, read back stripped',
    )
    t.match(again.stderr, 'stripper loaded: false')
    t.match(
      start('src/cli.ts').stderr,
      'stripper loaded: true',
      'node src/cli.ts strips its own file before it can turn the cache on',
    )
  },
)

/** The flags of a command that reads every row: V8 compiling on the main thread, and the heap's limits. */
const ROW_FLAGS = [
  '--no-concurrent-recompilation',
  '--max-semi-space-size=8',
  '--heap-growing-percent=15',
  '--liftoff-only',
]

t.test(
  'the judge command starts a command that reads every row again as itself, with the V8 flags that hold its memory; others run as started',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(5) })
    // A preload, kept across the new start, that says at exit with which flags and in which process the command ran.
    const probe = `import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(2, 'ran with ' + JSON.stringify(process.execArgv.filter((a) => a.startsWith('--') && a !== '--import')) + ' as ' + process.pid + '\\n'))`
    const start = (argv: string[]) => {
      const child = spawnSync(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, resolve(ROOT, 'bin/judge.js'), ...argv],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, TMPDIR: dir, JUDGE_STORE: resolve(dir, 'store.sqlite') },
        },
      )
      return { ...child, ran: /ran with (\S+) as (\d+)/.exec(child.stderr) }
    }
    const plan = start(['plan', 'spam.judge.yaml', '--data', 'messages.csv', '--json'])
    t.equal(plan.status, 0, plan.stderr)
    t.match(JSON.parse(plan.stdout), [{ judgment: 'spam', rows: 5 }])
    t.same(JSON.parse(plan.ran![1]), ROW_FLAGS, 'set as V8 starts, not changed while the command runs')
    t.equal(Number(plan.ran![2]), plan.pid, 'the same process, started again')
    t.equal(plan.stderr.match(/ran with/g)?.length, 1, 'and only the new start ran the command')
    // Every command that reads every row is restarted (its help is enough: the restart comes first), and is a command the CLI knows.
    for (const command of ['run', 'plan', 'replay', 'compare']) {
      const help = start([command, '--help'])
      t.equal(help.status, 0, `judge ${command} --help: ${help.stderr}`)
      t.same(JSON.parse(help.ran![1]), ROW_FLAGS, `judge ${command} is started again`)
    }
    for (const argv of [['--version'], ['test', '--help'], ['runs', '--help']]) {
      const short = start(argv)
      t.equal(short.status, 0)
      t.same(JSON.parse(short.ran![1]), [], `judge ${argv.join(' ')} runs as started`)
    }
  },
)

t.test('a run killed outright keeps every answer it received; the next run asks only the rest', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(60) })
  const slow = await startSystemOneServer({ expectKey: 'k', latencyMs: 40 })
  t.teardown(() => slow.close())
  const env = { ENGINE_URL: slow.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  const child = startCli(['run', 'spam.judge.yaml', '--data', 'messages.csv', '--concurrency', '2'], env, dir)
  while (slow.requests.length < 10) await delay(10)
  child.kill('SIGKILL')
  await new Promise((done) => child.once('close', done))
  const sent = slow.requests.length
  const healthy = await startSystemOneServer({ expectKey: 'k' })
  t.teardown(() => healthy.close())
  const rerun = await spawnCli(
    ['run', 'spam.judge.yaml', '--data', 'messages.csv', '--json'],
    { ...env, ENGINE_URL: healthy.url },
    dir,
  )
  t.equal(rerun.code, 0, rerun.stderr)
  const distinct = new Set(
    smsMessages()
      .slice(0, 60)
      .map((r) => r.message),
  ).size
  const [run] = JSON.parse(rerun.stdout)
  t.ok(
    healthy.requests.length <= distinct - sent + 2,
    `asked ${healthy.requests.length} of ${distinct} after ${sent} were sent before the kill`,
  )
  t.ok(healthy.requests.length < distinct, 'the answers received before the kill were not asked again')
  t.equal(run.requests, healthy.requests.length)
})
