import t from 'tap'
import { COMMON_OPTIONS } from '../../src/cli/args.ts'
import { defineCommand, type Args } from '../../src/cli/command.ts'
import type { CliIo } from '../../src/cli/io.ts'
import { UsageError } from '../../src/errors.ts'

const OPTIONS = { ...COMMON_OPTIONS, count: { type: 'string' } } as const

function io(): CliIo & { out: () => string } {
  let out = ''
  return {
    stdout: { write: (s: string) => void (out += s) },
    stderr: { write: () => {} },
    env: {},
    cwd: '/',
    out: () => out,
  }
}

t.test("a command gets its arguments parsed by its options, and returns its work's status", async (t) => {
  const seen: Args<typeof OPTIONS>[] = []
  const command = defineCommand('try', OPTIONS, 'usage: judge try\n', async (args) => (seen.push(args), 3))
  t.equal(await command.run(['here', '--count', '2', '--json'], io(), {}), 3)
  t.same(
    seen.map((a) => [a.positionals, a.values.count, a.values.json]),
    [[['here'], '2', true]],
  )
  t.equal(command.help, 'usage: judge try\n')
})

t.test('--help (or -h) prints the help and exits 0 without the work', async (t) => {
  let worked = false
  const command = defineCommand('try', OPTIONS, 'usage: judge try\n', async () => ((worked = true), 1))
  for (const flag of ['--help', '-h']) {
    const out = io()
    t.equal(await command.run(['here', flag], out, {}), 0)
    t.equal(out.out(), 'usage: judge try\n')
  }
  t.notOk(worked)
})

t.test('an unknown flag is a usage error that names the command, before any work', async (t) => {
  let worked = false
  const command = defineCommand('try', OPTIONS, 'usage\n', async () => ((worked = true), 0))
  await t.rejects(command.run(['--bogus'], io(), {}), new UsageError("Unknown option '--bogus'; see judge try --help"))
  t.notOk(worked)
})
