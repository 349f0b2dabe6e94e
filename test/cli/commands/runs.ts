import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { PROVENANCE_FIELDS, RUN_FIELDS } from '../../../src/app/runs.ts'
import { cli } from '../../helpers/cli.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { smsCsv } from '../../helpers/sms.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'

t.test('--json lists the runs newest first, with exactly the listed fields', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const seeded = seedRuns(
    dir,
    [1, 2, 3].map((n) => ({ judgment: 'spam', counts: { is_spam: { yes: n } } })),
  )
  const result = await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  const runs = JSON.parse(result.stdout)
  t.same(
    runs.map((r: { run_id: string }) => r.run_id),
    seeded.map((r) => r.run_id).reverse(),
  )
  t.same(Object.keys(runs[0]), [...RUN_FIELDS, ...PROVENANCE_FIELDS])
  t.match(runs[0], { command: 'run', source: 'data.csv', node: 'spam', reported_model: 'jev-1.13.0', states: 3 })
})

t.test(
  'the table has a line per run with what it ran on, its rows, cost, models, spec, commit and status',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const [run] = seedRuns(dir, [
      { judgment: 'spam', counts: { is_spam: { yes: 3, no: 9 } }, status: 'failed: engine answered 500: overloaded' },
    ])
    const { stdout } = await cli(['runs', 'spam.judge.yaml'], {}, dir)
    const [header, line] = stdout.split('\n')
    t.match(
      header,
      /^run\s+judgment\s+command\s+source\s+rows\s+states\s+asked\s+cost\s+model\s+reported\s+spec\s+commit\s+status$/,
    )
    t.match(
      line,
      new RegExp(
        `^${run.run_id}\\s+spam\\s+run\\s+data\\.csv\\s+12\\s+12\\s+24\\s+\\$0\\.0001\\s+jev-1\\.13\\.0\\s+jev-1\\.13\\.0\\s+abcdef0123456789\\s+a1b2c3d\\s+failed: engine answered 500: overloaded$`,
      ),
    )
  },
)

t.test('no runs yet says so, and listing makes no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  t.match(await cli(['runs', 'spam.judge.yaml'], {}, dir), { code: 0, stdout: 'no runs yet\n' })
  t.match(await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir), { code: 0, stdout: '[]\n' })
  t.notOk(existsSync(join(dir, '.judge')))
})

t.test(
  "a folder lists every judgment's runs; --node one of them; an unknown node exits 2 naming the judgments",
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
    seedRuns(dir, [
      { judgment: 'spam', counts: { is_spam: { yes: 1 } } },
      { judgment: 'tone', counts: { tone: { no: 1 } } },
    ])
    const judgments = async (...args: string[]) =>
      JSON.parse((await cli(['runs', '.', '--json', ...args], {}, dir)).stdout).map(
        (r: { judgment: string }) => r.judgment,
      )
    t.same(await judgments(), ['tone', 'spam'])
    t.same(await judgments('--node', 'spam'), ['spam'])
    t.match(await cli(['runs', '.', '--node', 'nope'], {}, dir), {
      code: 2,
      stderr: /^judge runs: unknown node "nope"; the judgments here are: spam, tone/,
    })
  },
)

t.test(
  '--prune lists the runs whose row lists would go (a dry run); --yes deletes them, keeping the run records',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(12, 2) })
    const options = { engine: createFakeEngine() }
    for (let i = 0; i < 4; i++) t.equal((await cli(['run', 'spam.judge.yaml'], {}, dir, options)).code, 0)
    const runs = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout) as {
      run_id: string
      states: number
    }[]
    const dry = await cli(['runs', 'spam.judge.yaml', '--prune', '--keep', '2'], {}, dir, options)
    t.equal(dry.code, 0, dry.stderr)
    const lines = dry.stdout.trimEnd().split('\n')
    t.match(lines[0], /^run\s+judgment\s+command\s+source\s+started\s+status\s+states$/)
    t.same(
      lines.slice(1, 3).map((l) => l.split(/\s+/)[0]),
      [runs[2].run_id, runs[3].run_id],
      'the two oldest, newest first',
    )
    t.match(lines[1], /\s+spam\s+run\s+messages\.csv\s+\S+\s+complete\s+12$/)
    t.equal(
      lines[3],
      'would delete 24 states in 2 run row lists; the newest 2 runs of each series and its newest complete run keep theirs; nothing was deleted (give --yes to delete)',
    )
    const json = JSON.parse(
      (await cli(['runs', 'spam.judge.yaml', '--prune', '--keep', '2', '--json'], {}, dir, options)).stdout,
    )
    t.match(json, { dry_run: true, keep: 2, states: 24, deleted: 0 })
    const done = await cli(['runs', 'spam.judge.yaml', '--prune', '--keep', '2', '--yes'], {}, dir, options)
    t.match(
      done.stdout,
      /\ndeleted 24 states in 2 run row lists; run records and label counts stay\. The file keeps its size until VACUUM \(sqlite3 \.judge\/store\.sqlite 'VACUUM'\)\n$/,
    )
    t.same(
      JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout),
      runs,
      'every run is still listed, as before',
    )
    t.equal(
      (await cli(['runs', 'spam.judge.yaml', '--prune', '--keep', '2'], {}, dir, options)).stdout,
      'no run row lists to prune: the newest 2 runs of each series and its newest complete run keep theirs\n',
    )
    const db = new DatabaseSync(join(dir, '.judge', 'store.sqlite'))
    t.teardown(() => db.close())
    t.same(db.prepare('SELECT count(*) AS n FROM _judge_run_states').get(), { n: 24 })
    t.same(db.prepare('PRAGMA integrity_check').get(), { integrity_check: 'ok' })
  },
)

t.test('--keep and --yes go with --prune; --keep is a whole number of 1 or more', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  for (const [args, message] of [
    [['--yes'], /--yes goes with --prune/],
    [['--keep', '3'], /--keep goes with --prune/],
    [['--prune', '--keep', '0'], /--keep must be a whole number of 1 or more, not "0"/],
    [['--prune', '--keep', '1.5'], /--keep must be a whole number of 1 or more, not "1.5"/],
  ] as const) {
    const result = await cli(['runs', 'spam.judge.yaml', ...args], {}, dir)
    t.equal(result.code, 2, args.join(' '))
    t.match(result.stderr, message)
  }
  t.notOk(existsSync(join(dir, '.judge')), 'nothing was made')
})

t.test('the VACUUM hint names the store as one shell word, quoted when its path needs it', async (t) => {
  const dir = t.testdir({
    "it's here": { 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(4, 0) },
  })
  const options = { engine: createFakeEngine() }
  for (let i = 0; i < 2; i++) t.equal((await cli(['run', "it's here/spam.judge.yaml"], {}, dir, options)).code, 0)
  const done = await cli(['runs', "it's here", '--prune', '--keep', '1', '--yes'], {}, dir, options)
  t.match(done.stdout, "(sqlite3 'it'\\''s here/.judge/store.sqlite' 'VACUUM')\n")
})

t.test('the table is followed by where p came from per question in the newest run, as --json gives it', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(12, 2) })
  const options = { engine: createFakeEngine() }
  t.equal((await cli(['run', 'spam.judge.yaml'], {}, dir, options)).code, 0)
  const [run] = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout)
  t.same(run.sources, { is_spam: { distribution: 12 }, topic: { distribution: 12 }, urgency: { distribution: 12 } })
  const { stdout } = await cli(['runs', 'spam.judge.yaml'], {}, dir, options)
  t.match(
    stdout,
    /\nwhere p comes from, in the newest run of each judgment:\n {2}spam is_spam: p from the engine's distribution \(12 answers\)\n/,
  )
})
