import t from 'tap'
import { appendFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { parse } from 'csv-parse/sync'
import { runCli } from '../../src/cli/run-cli.ts'
import { cli, startCli } from '../helpers/cli.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { smsCsv } from '../helpers/sms.ts'
import { SPAM_YAML } from '../helpers/specs.ts'
import { startSystemOneServer, type SystemOneServerOptions } from '../helpers/system-one-server.ts'
import type { Store } from '../../src/ports/store.ts'
import { StoreError } from '../../src/store-error.ts'
import type { Test } from 'tap'

// `judge run --out`: never a file the run reads or owns, never over a column of the data, and in place only whole.

const KEY = 'test-key'
const OLD = 'answers of an earlier run\n'

async function setup(t: Test, options: SystemOneServerOptions = {}) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: rows.csv\n', 'rows.csv': smsCsv(12, 3) })
  const engine = await startSystemOneServer({ expectKey: KEY, ...options })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' }
  const runs = async () => JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], env, dir)).stdout).length
  return { dir, engine, env, runs }
}

/** The files of a folder left by a write that did not finish: none, when every write cleans up. */
const temps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'))

t.test('--out at the data file, through a symlink or a hard link, is refused before anything is opened', async (t) => {
  const { dir, engine, env, runs } = await setup(t)
  const data = readFileSync(join(dir, 'rows.csv'))
  symlinkSync('rows.csv', join(dir, 'link.csv'))
  linkSync(join(dir, 'rows.csv'), join(dir, 'hard.csv'))
  mkdirSync(join(dir, 'sub'))
  symlinkSync('../link.csv', join(dir, 'sub/chain.csv'))
  t.match(await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--out', 'rows.csv'], env, dir), {
    code: 2,
    stderr: 'judge run: --out rows.csv is the data file rows.csv; write the answers to another file\n',
  })
  for (const out of ['link.csv', 'hard.csv', 'sub/chain.csv', `${dir}/./rows.csv`])
    t.match(
      await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--out', out], env, dir),
      { code: 2, stderr: `judge run: --out ${out} is the data file rows.csv; write the answers to another file\n` },
      out,
    )
  t.match(await cli(['run', 'spam.judge.yaml', '--out', 'hard.csv'], env, dir), {
    code: 2,
    stderr: `is the data file ${join(dir, 'rows.csv')}`,
  })
  t.same(readFileSync(join(dir, 'rows.csv')), data, 'the data file is as it was')
  t.equal(engine.requests.length, 0, 'nothing was asked')
  t.equal(await runs(), 0, 'no run was recorded')
  t.notOk(existsSync(join(dir, '.judge')), 'no store was made')
})

t.test('--out at the store, its log, a spec, its key or reviews file is refused, the store intact', async (t) => {
  const { dir, engine, env, runs } = await setup(t)
  t.equal((await cli(['run', 'spam.judge.yaml'], env, dir)).code, 0)
  const asked = engine.requests.length
  const store = readFileSync(join(dir, '.judge/store.sqlite'))
  const refusals: [string, string][] = [
    ['.judge/store.sqlite', 'the store .judge/store.sqlite'],
    ['.judge/store.sqlite-wal', "the store's write-ahead log .judge/store.sqlite-wal"],
    ['.judge/store.sqlite-shm', "the store's shared-memory file .judge/store.sqlite-shm"],
    ['.judge/store.sqlite-journal', "the store's rollback journal .judge/store.sqlite-journal"],
    ['spam.judge.yaml', 'the spec file spam.judge.yaml'],
    ['spam.reviews.csv', 'the reviews file spam.reviews.csv'],
  ]
  for (const [out, what] of refusals)
    t.match(
      await cli(['run', 'spam.judge.yaml', '--out', out], env, dir),
      { code: 2, stderr: `judge run: --out ${out} is ${what}; write the answers to another file\n` },
      out,
    )
  t.notOk(existsSync(join(dir, '.judge/store.sqlite-wal')), 'no log was made where there was none')
  t.notOk(existsSync(join(dir, 'spam.reviews.csv')), 'nor a reviews file')
  t.same(readFileSync(join(dir, '.judge/store.sqlite')), store, 'the store is as it was')
  t.equal(await runs(), 1, 'only the first run is recorded')
  t.equal(engine.requests.length, asked)

  mkdirSync(join(dir, 'sub'))
  t.match(await cli(['run', '../spam.judge.yaml', '--out', '../spam.judge.yaml'], env, join(dir, 'sub')), {
    code: 2,
    stderr: `judge run: --out ../spam.judge.yaml is the spec file ${join(dir, 'spam.judge.yaml')}; `,
  })
  appendFileSync(join(dir, 'spam.judge.yaml'), 'key: key.csv\n')
  t.match(await cli(['run', 'spam.judge.yaml', '--out', 'key.csv'], env, dir), {
    code: 2,
    stderr: /--out key\.csv is the answer key key\.csv;/,
  })
  mkdirSync(join(dir, 'out'))
  t.match(await cli(['run', 'spam.judge.yaml', '--out', 'out'], env, dir), {
    code: 2,
    stderr: 'judge run: --out out is a folder; name a file to write the answers to\n',
  })
  t.match(await cli(['run', 'spam.judge.yaml', '--out', 'nowhere/a.csv'], env, dir), {
    code: 2,
    stderr: 'judge run: --out nowhere/a.csv: there is no folder nowhere to write it in\n',
  })
})

t.test('a run that fails leaves an earlier --out file as it was, and no file beside it', async (t) => {
  const { dir, env, runs } = await setup(t, { garbage: true })
  appendFileSync(join(dir, 'answers.csv'), OLD)
  const result = await cli(['run', 'spam.judge.yaml', '--out', 'answers.csv'], env, dir)
  t.equal(result.code, 1)
  t.match(
    result.stderr,
    'judge run: --out answers.csv was not written, and a file of that name is as it was: ' +
      'it is written once every run is complete\n',
  )
  t.equal(readFileSync(join(dir, 'answers.csv'), 'utf8'), OLD)
  t.same(temps(dir), [])
  t.equal(await runs(), 1, 'the failed run is recorded, as any failed run')

  const refused = await cli(['run', 'spam.judge.yaml', '--out', 'answers.csv'], { ...env, JUDGE_MAX_COST: '0' }, dir)
  t.equal(refused.code, 2, 'above the cap')
  t.notMatch(refused.stderr, /was not written/, 'a refused run opened no file to drop')
  t.equal(readFileSync(join(dir, 'answers.csv'), 'utf8'), OLD)
  t.same(temps(dir), [])
})

t.test('an interrupted run leaves an earlier --out file as it was', async (t) => {
  const { dir, runs } = await setup(t)
  appendFileSync(join(dir, 'answers.csv'), OLD)
  const stop = new AbortController()
  const engine = createFakeEngine({ fail: () => (stop.abort(), undefined) })
  let stderr = ''
  const code = await runCli(
    ['run', 'spam.judge.yaml', '--out', 'answers.csv', '--concurrency', '1'],
    {
      stdout: { write: () => true },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      cwd: dir,
      signal: stop.signal,
    },
    { engine },
  )
  t.equal(code, 1, stderr)
  t.match(stderr, /failed: interrupted/)
  t.match(stderr, /--out answers\.csv was not written/)
  t.equal(readFileSync(join(dir, 'answers.csv'), 'utf8'), OLD)
  t.same(temps(dir), [])
  t.equal(await runs(), 1)
})

t.test('a run that stops with an error after judging drops its --out file and leaves the earlier one', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': smsCsv(5, 0), 'answers.csv': OLD })
  const store = createMemoryStore()
  const full = new StoreError('store.sqlite', 'full', 'store.sqlite: the disk is full')
  const result = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--out', 'answers.csv'], {}, dir, {
    engine: createFakeEngine(),
    openStore: () =>
      new Proxy(store, {
        get: (target, name: keyof Store) =>
          name === 'recordRun'
            ? () => {
                throw full
              }
            : target[name],
      }),
  })
  t.equal(result.code, 2, result.stderr)
  t.match(result.stderr, /the disk is full/)
  t.match(result.stderr, /--out answers\.csv was not written/)
  t.equal(readFileSync(join(dir, 'answers.csv'), 'utf8'), OLD)
  t.same(temps(dir), [])
})

t.test('an --out file that cannot be put in place is said plainly, and the answers stay stored', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': smsCsv(3, 0) })
  // A folder made at the target while the run goes: the file cannot be renamed over it.
  const engine = createFakeEngine({
    fail: () => (mkdirSync(join(dir, 'answers.csv'), { recursive: true }), undefined),
  })
  const result = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--out', 'answers.csv'], {}, dir, {
    engine,
  })
  t.equal(result.code, 1)
  t.match(
    result.stderr,
    /^judge run: --out answers\.csv could not be written \((EISDIR|ENOTEMPTY|EEXIST)\), and a file of that name is as it was; the answers are stored/,
  )
  t.notMatch(result.stderr, /unexpected error/)
  t.same(temps(dir), [])
  const again = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], {}, dir, { engine })
  t.match(JSON.parse(again.stdout), [{ asked: 0 }], 'nothing is asked again')
})

t.test('a run killed while writing --out leaves the earlier file as it was', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': smsCsv(60, 0), 'answers.csv': OLD })
  // Answers 20 requests, then hangs: the run is killed with rows written beside the file.
  const slow = await startSystemOneServer({ expectKey: KEY, hangFrom: 20 })
  t.teardown(() => slow.close())
  const child = startCli(
    ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--out', 'answers.csv'],
    { ENGINE_URL: slow.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' },
    dir,
    'ignore',
  )
  const exited = new Promise<string | null>((done) => child.on('close', (_code, signal) => done(signal)))
  const written = () => temps(dir).some((f) => readFileSync(join(dir, f), 'utf8').split('\n').length > 10)
  const untouched = () => readFileSync(join(dir, 'answers.csv'), 'utf8') === OLD
  while (!written() && untouched() && child.exitCode === null) await delay(10)
  child.kill('SIGKILL')
  t.equal(await exited, 'SIGKILL')
  t.equal(readFileSync(join(dir, 'answers.csv'), 'utf8'), OLD)
})

t.test('answer columns never replace columns of the data: refused, or named apart with --out-prefix', async (t) => {
  const { dir, engine, env, runs } = await setup(t)
  appendFileSync(
    join(dir, 'labeled.csv'),
    'message,topic,urgency.route,x_is_spam\nhello,personal,x,no\nWIN now,promotion,y,yes\n',
  )
  t.match(await cli(['run', 'spam.judge.yaml', '--data', 'labeled.csv', '--out', 'answers.csv'], env, dir), {
    code: 2,
    stderr:
      'judge run: labeled.csv has columns topic, urgency.route that --out would replace with the answers; ' +
      'name the answer columns apart with --out-prefix, e.g. --out-prefix answer_\n',
  })
  t.notOk(existsSync(join(dir, 'answers.csv')))
  t.equal(engine.requests.length, 0, 'nothing was asked')
  t.equal(await runs(), 0, 'no run was recorded')

  const result = await cli(
    ['run', 'spam.judge.yaml', '--data', 'labeled.csv', '--out', 'answers.csv', '--out-prefix', 'ai_'],
    env,
    dir,
  )
  t.equal(result.code, 0, result.stderr)
  const rows: Record<string, string>[] = parse(readFileSync(join(dir, 'answers.csv')), { columns: true })
  t.same(Object.keys(rows[0]).slice(0, 6), [
    'message',
    'topic',
    'urgency.route',
    'x_is_spam',
    'ai_is_spam',
    'ai_is_spam.p',
  ])
  t.same(
    rows.map((r) => [r.topic, r['urgency.route']]),
    [
      ['personal', 'x'],
      ['promotion', 'y'],
    ],
    "the data's own columns are kept",
  )
  t.match(rows[0], { ai_topic: /^(personal|promotion|service)$/, 'ai_urgency.p': /^[\d.]+$/ })

  t.match(
    await cli(
      ['run', 'spam.judge.yaml', '--data', 'labeled.csv', '--out', 'answers.csv', '--out-prefix', 'x_'],
      env,
      dir,
    ),
    { code: 2, stderr: /has a column x_is_spam that --out would replace .* e\.g\. --out-prefix x_answer_\n/ },
    'a prefix that makes another clash is refused too',
  )
  t.match(await cli(['run', 'spam.judge.yaml', '--out-prefix', 'ai_'], env, dir), {
    code: 2,
    stderr: 'judge run: --out-prefix names the answer columns of --out: give --out FILE too\n',
  })
})

t.test('a JSON Lines row with an answer column anywhere in the file is refused before anything is asked', async (t) => {
  const { dir, engine, env } = await setup(t)
  const rows = ['{"message":"hi"}', '{"message":"yo","extra":1}', '{"message":"buy","is_spam":"yes"}']
  appendFileSync(join(dir, 'rows.jsonl'), rows.join('\n') + '\n')
  appendFileSync(join(dir, 'answers.jsonl'), OLD)
  t.match(await cli(['run', 'spam.judge.yaml', '--data', 'rows.jsonl', '--out', 'answers.jsonl'], env, dir), {
    code: 2,
    stderr: /rows\.jsonl has a column is_spam that --out would replace/,
  })
  t.equal(readFileSync(join(dir, 'answers.jsonl'), 'utf8'), OLD)
  t.equal(engine.requests.length, 0)
  const result = await cli(
    ['run', 'spam.judge.yaml', '--data', 'rows.jsonl', '--out', 'answers.jsonl', '--out-prefix', 'judged.'],
    env,
    dir,
  )
  t.equal(result.code, 0, result.stderr)
  const written = readFileSync(join(dir, 'answers.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  t.match(written[2], { message: 'buy', is_spam: 'yes', 'judged.is_spam': /^(yes|no)$/ })
  t.same(temps(dir), [])
})
