import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { SPAM_YAML } from './helpers/specs.ts'

const MAIN = resolve(import.meta.dirname, '../src/main.ts')

/** Starts `node src/main.ts` and resolves with its URL once it has logged the startup line. */
function start(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--no-warnings', MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  return new Promise((done, fail) => {
    child.stderr!.on('data', (d) => {
      stderr += d
      const url = /listening on (http:\/\/\S+),/.exec(stderr)?.[1]
      if (url) done({ child, url, stderr: () => stderr, exit })
    })
    void exit.then((code) => fail(new Error(`exited ${code}: ${stderr}`)))
  })
}

t.test('node src/main.ts serves, logs one startup line without secrets, and exits 0 on SIGTERM', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const { child, url, stderr, exit } = await start({
    JUDGE_PROJECTS: dir,
    JUDGE_SERVER_TOKEN: 'tok-main',
    ENGINE_API_KEY: 'key-main',
  })
  t.match(
    stderr(),
    new RegExp(
      `^judge server listening on http://127\\.0\\.0\\.1:\\d+, serving ${dir}; token required; engine key set\\n`,
    ),
  )
  t.equal(
    (await fetch(`${url}/v1/runs?path=spam.judge.yaml`, { headers: { authorization: 'Bearer tok-main' } })).status,
    200,
  )
  child.kill('SIGTERM')
  t.equal(await exit, 0)
  t.notMatch(stderr(), /tok-main|key-main/)
  t.match(stderr(), /shutting down.*\nstopped\n$/)
})

t.test('SIGINT stops it gracefully too', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const { child, exit } = await start({ JUDGE_PROJECTS: dir })
  child.kill('SIGINT')
  t.equal(await exit, 0)
})

t.test('a bad setting stops it at startup with exit status 2 naming the variable', async (t) => {
  const child = spawn(process.execPath, ['--no-warnings', MAIN], { env: { ...process.env, PORT: 'eighty' } })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const code = await new Promise((done) => child.on('exit', done))
  t.equal(code, 2)
  t.match(stderr, /PORT must be a port number, not "eighty"/)
})

t.test('a port already taken exits 2 with the reason and what to set, without a stack', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const first = await start({ JUDGE_PROJECTS: dir })
  t.teardown(() => void first.child.kill('SIGTERM'))
  const port = new URL(first.url).port
  const child = spawn(process.execPath, ['--no-warnings', MAIN], {
    env: { ...process.env, JUDGE_PROJECTS: dir, HOST: '127.0.0.1', PORT: port },
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  t.equal(await new Promise((done) => child.on('exit', done)), 2)
  t.equal(
    stderr,
    `judge server: cannot listen: 127.0.0.1:${port} is already in use (another server?); stop it, or set PORT to another port (PORT=0 picks a free one)\n`,
  )
})

t.test(
  'without JUDGE_PROJECTS it serves the examples with the simulated engine, unless ENGINE says otherwise',
  async (t) => {
    const { JUDGE_PROJECTS: _projects, ENGINE: _engine, ...env } = process.env
    const examples = await start({ ...env, JUDGE_PROJECTS: '' } as Record<string, string>)
    t.match(examples.stderr(), /serving \S+examples; .*; simulated engine/)
    examples.child.kill('SIGTERM')
    await examples.exit
    const real = await start({ ...env, JUDGE_PROJECTS: '', ENGINE: 'systemone', ENGINE_API_KEY: '' } as Record<
      string,
      string
    >)
    t.match(real.stderr(), /serving \S+examples; .*; no engine key/)
    real.child.kill('SIGTERM')
    await real.exit
  },
)
