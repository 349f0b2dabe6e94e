import t from 'tap'
import { spawnSync } from 'node:child_process'
import { cpSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createLocalFiles } from '../../src/adapters/files/local-files.ts'
import { COMMANDS, mainHelp } from '../../src/cli/run-cli.ts'
import { cli, ROOT } from '../helpers/cli.ts'
import { SPAM_YAML } from '../helpers/specs.ts'
import { smsCsv } from '../helpers/sms.ts'
import { startSystemOneServer } from '../helpers/system-one-server.ts'

const VERSION = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')).version

t.test('no command prints the help and exits 2; --help and -h print it and exit 0', async (t) => {
  const dir = t.testdir({})
  t.match(await cli([], {}, dir), { code: 2, stdout: mainHelp(), stderr: '' })
  for (const flag of ['--help', '-h']) t.match(await cli([flag], {}, dir), { code: 0, stdout: mainHelp() })
  t.match(mainHelp(), /^usage: judge <command> \[options\]\n\ncommands:\n  init /)
  for (const name of Object.keys(COMMANDS))
    t.match(
      mainHelp(),
      new RegExp(`\\n  ${name} +${COMMANDS[name].summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
      `${name} is listed with its summary`,
    )
})

t.test('--version prints the package version', async (t) => {
  const dir = t.testdir({})
  for (const flag of ['--version', '-v', 'version'])
    t.match(await cli([flag], {}, dir), { code: 0, stdout: `${VERSION}\n`, stderr: '' })
})

t.test("help <command> prints that command's help; help alone the top-level help", async (t) => {
  const dir = t.testdir({})
  for (const name of Object.keys(COMMANDS)) {
    const { help } = await COMMANDS[name].load()
    t.match(await cli(['help', name], {}, dir), { code: 0, stdout: help }, `help ${name}`)
    t.equal((await cli([name, '--help'], {}, dir)).stdout, help)
  }
  t.match(await cli(['help'], {}, dir), { code: 0, stdout: mainHelp() })
  t.match(await cli(['help', 'nope'], {}, dir), { code: 2, stderr: /unknown command "nope"/ })
})

t.test('an unknown command gets the nearest one as a suggestion', async (t) => {
  const dir = t.testdir({})
  t.match(await cli(['runn'], {}, dir), { code: 2, stderr: /^judge: unknown command "runn"; did you mean "run"\?\n/ })
  t.match(await cli(['plna'], {}, dir), { stderr: /did you mean "plan"\?/ })
  t.match(await cli(['xyzzy'], {}, dir), { code: 2, stderr: /^judge: unknown command "xyzzy"\n\nusage:/ })
})

t.test('a message names its command once', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(3) })
  const bad = await cli(['run', 'spam.judge.yaml', '--data', 'messages.csv', '--concurrency', '0'], {}, dir)
  t.match(bad, { code: 2, stderr: 'judge run: --concurrency must be a whole number of 1 or more, not "0"\n' })
  t.match(await cli(['plan'], {}, dir), {
    code: 2,
    stderr: /^judge plan: expected one spec file or folder, got none; see judge plan --help\n$/,
  })
  t.match(await cli(['plan', 'spam.judge.yaml'], {}, dir), {
    code: 2,
    stderr: /^judge plan: no data file: give --data FILE/,
  })
  t.match(await cli(['runs', '--nope'], {}, dir), { code: 2, stderr: /^judge runs: Unknown option '--nope'/ })
})

t.test('with --json an error is also {"error": …} on stdout', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const result = await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir)
  t.equal(result.code, 2)
  t.same(JSON.parse(result.stdout), { error: 'no data file: give --data FILE or set data: in the spec' })
  t.equal(result.stderr, 'judge plan: no data file: give --data FILE or set data: in the spec\n')
  t.same(JSON.parse((await cli(['runs', 'missing', '--json'], {}, dir)).stdout), {
    error: `no such file or folder: ${resolve(dir, 'missing')}`,
  })
  t.equal((await cli(['plan', 'spam.judge.yaml', '--', '--json'], {}, dir)).stdout, '', 'not after --')
})

t.test('a cost-cap refusal says how to raise the cap, with amounts in full', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(3) })
  const engine = await startSystemOneServer({ expectKey: 'k' })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  const result = await cli(
    ['run', 'spam.judge.yaml', '--data', 'messages.csv'],
    { ...env, JUDGE_MAX_COST: '0.0000001' },
    dir,
  )
  t.equal(result.code, 2)
  t.match(
    result.stderr,
    /above the cap of \$0\.0000001; nothing was asked\. To allow it, raise the cap above the estimate: JUDGE_MAX_COST=0\.0000\d\n$/,
  )
  const raised = /JUDGE_MAX_COST=([\d.]+)/.exec(result.stderr)![1]
  t.equal(engine.requests.length, 0, 'nothing was asked')
  t.equal(
    (await cli(['run', 'spam.judge.yaml', '--data', 'messages.csv'], { ...env, JUDGE_MAX_COST: raised }, dir)).code,
    0,
    'the suggested cap allows it',
  )
})

t.test('a folder of several judgments asks for --node', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    'ham.judge.yaml': SPAM_YAML.replace('name: spam', 'name: ham'),
  })
  t.match(await cli(['drift', '.'], {}, dir), {
    code: 2,
    stderr: 'judge drift: this folder holds 2 judgments (ham, spam); name one with --node NAME\n',
  })
  t.match(await cli(['drift', '.', '--node', 'spam'], {}, dir), { code: 0 })
})

t.test('an unexpected error is printed with its stack and exits 1', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(1) })
  const broken = {
    files: {
      ...createLocalFiles(),
      rows: () => {
        throw new Error('disk on fire')
      },
    },
  }
  const result = await cli(['plan', 'spam.judge.yaml', '--data', 'messages.csv', '--json'], {}, dir, broken)
  t.equal(result.code, 1)
  t.same(JSON.parse(result.stdout), { error: 'unexpected error: disk on fire' })
  t.match(result.stderr, /^judge plan: unexpected error: Error: disk on fire\n\s+at /)
})

t.test('judge plan and judge run on the example load no module of the server, nor the other commands', async (t) => {
  const dir = t.testdir({})
  cpSync(resolve(ROOT, 'examples/sms'), join(dir, 'sms'), { recursive: true })
  for (const argv of [
    ['plan', 'sms'],
    ['run', 'sms'],
  ]) {
    const record = join(dir, `${argv[0]}.modules`)
    const child = spawnSync(
      process.execPath,
      ['--import', resolve(ROOT, 'test/helpers/module-record.ts'), resolve(ROOT, 'src/cli.ts'), ...argv],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, ENGINE: 'simulated', MODULE_RECORD: record },
        encoding: 'utf8',
      },
    )
    t.equal(child.status, 0, `judge ${argv.join(' ')}: ${child.stderr}`)
    const sources = readFileSync(record, 'utf8')
      .split('\n')
      .filter((url) => url.includes('/src/'))
      .map((url) => url.slice(url.indexOf('/src/') + 1))
    t.ok(
      sources.includes(`src/cli/commands/${argv[0]}.ts`),
      `the ${argv[0]} command was loaded (${sources.length} source modules)`,
    )
    t.same(
      sources.filter((f) => f.startsWith('src/http/')),
      [],
      `judge ${argv[0]} loads nothing under src/http/`,
    )
    t.same(
      sources.filter((f) => f.startsWith('src/cli/commands/') && f !== `src/cli/commands/${argv[0]}.ts`),
      [],
      'nor another command',
    )
  }
})
