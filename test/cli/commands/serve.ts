import t from 'tap'
import { runCli } from '../../../src/cli/run-cli.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

function io(env: Record<string, string>, cwd: string, signal?: AbortSignal) {
  const out = { stdout: '', stderr: '' }
  return {
    out,
    io: {
      stdout: { write: (s: string) => (out.stdout += s) },
      stderr: { write: (s: string) => (out.stderr += s) },
      env,
      cwd,
      signal,
    },
  }
}

t.test('judge serve serves the working folder until the signal, then stops and exits 0', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const controller = new AbortController()
  const { out, io: cliIo } = io({ PORT: '0' }, dir, controller.signal)
  const code = runCli(['serve'], cliIo)
  while (!/listening on/.test(out.stderr)) await new Promise((resolve) => setTimeout(resolve, 10))
  const url = /listening on (\S+),/.exec(out.stderr)![1]
  const res = await fetch(`${url}/v1/drift?path=spam.judge.yaml`)
  t.same(await res.json(), { is_spam: [], topic: [], urgency: [] })
  controller.abort()
  t.equal(await code, 0)
  t.match(out.stderr, new RegExp(`serving ${dir};`))
  t.match(out.stderr, /stopped\n$/)
})

t.test('judge serve --help explains it and a path argument is refused', async (t) => {
  const dir = t.testdir({})
  const help = io({}, dir)
  t.equal(await runCli(['serve', '--help'], help.io), 0)
  t.match(help.out.stdout, /^usage: judge serve\n/)
  t.match(help.out.stdout, /JUDGE_PROJECTS/)
  const extra = io({}, dir)
  t.equal(await runCli(['serve', 'specs'], extra.io), 2)
  t.match(extra.out.stderr, /takes no paths/)
  const bad = io({ PORT: 'x' }, dir)
  t.equal(await runCli(['serve'], bad.io), 2)
  t.match(bad.out.stderr, /PORT must be a port number/)
})

t.test('judge serve on a port in use exits 2 saying what to set', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const controller = new AbortController()
  const first = io({ PORT: '0' }, dir, controller.signal)
  const running = runCli(['serve'], first.io)
  while (!/listening on/.test(first.out.stderr)) await new Promise((resolve) => setTimeout(resolve, 10))
  const port = new URL(/listening on (\S+),/.exec(first.out.stderr)![1]).port
  const second = io({ PORT: port }, dir, controller.signal)
  t.equal(await runCli(['serve'], second.io), 2)
  t.equal(
    second.out.stderr,
    `judge serve: cannot listen: 127.0.0.1:${port} is already in use (another server?); stop it, or set PORT to another port (PORT=0 picks a free one)\n`,
  )
  controller.abort()
  t.equal(await running, 0)
})
