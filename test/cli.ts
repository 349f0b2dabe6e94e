import t from 'tap'
import { spawnCli } from './helpers/cli.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { smsCsv } from './helpers/sms.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

t.test('node src/cli.ts runs as a user would, with exit statuses and no sqlite warning', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': smsCsv(20) })
  const engine = await startSystemOneServer({ expectKey: 'k' })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k' }
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
