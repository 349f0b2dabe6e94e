import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PROVENANCE_FIELDS, RUN_FIELDS } from '../../../src/app/runs.ts'
import { cli } from '../../helpers/cli.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'

t.test('--json lists the runs newest first, with exactly the listed fields', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const seeded = seedRuns(dir, [1, 2, 3].map((n) => ({ judgment: 'spam', counts: { is_spam: { yes: n } } })))
  const result = await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  const runs = JSON.parse(result.stdout)
  t.same(runs.map((r: { run_id: string }) => r.run_id), seeded.map((r) => r.run_id).reverse())
  t.same(Object.keys(runs[0]), [...RUN_FIELDS, ...PROVENANCE_FIELDS])
  t.match(runs[0], { command: 'run', source: 'data.csv', node: 'spam', reported_model: 'jev-1.13.0', states: 3 })
})

t.test('the table has a line per run with what it ran on, its rows, cost, models, spec, commit and status', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const [run] = seedRuns(dir, [{ judgment: 'spam', counts: { is_spam: { yes: 3, no: 9 } }, status: 'failed: engine answered 500: overloaded' }])
  const { stdout } = await cli(['runs', 'spam.judge.yaml'], {}, dir)
  const [header, line] = stdout.split('\n')
  t.match(header, /^run\s+judgment\s+command\s+source\s+rows\s+states\s+asked\s+cost\s+model\s+reported\s+spec\s+commit\s+status$/)
  t.match(line, new RegExp(`^${run.run_id}\\s+spam\\s+run\\s+data\\.csv\\s+12\\s+12\\s+24\\s+\\$0\\.0001\\s+jev-1\\.13\\.0\\s+jev-1\\.13\\.0\\s+abcdef0123456789\\s+a1b2c3d\\s+failed: engine answered 500: overloaded$`))
})

t.test('no runs yet says so, and listing makes no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  t.match(await cli(['runs', 'spam.judge.yaml'], {}, dir), { code: 0, stdout: 'no runs yet\n' })
  t.match(await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir), { code: 0, stdout: '[]\n' })
  t.notOk(existsSync(join(dir, '.judge')))
})

t.test('a folder lists every judgment\'s runs; --node one of them; an unknown node exits 2 naming the judgments', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  seedRuns(dir, [{ judgment: 'spam', counts: { is_spam: { yes: 1 } } }, { judgment: 'tone', counts: { tone: { no: 1 } } }])
  const judgments = async (...args: string[]) => JSON.parse((await cli(['runs', '.', '--json', ...args], {}, dir)).stdout).map((r: { judgment: string }) => r.judgment)
  t.same(await judgments(), ['tone', 'spam'])
  t.same(await judgments('--node', 'spam'), ['spam'])
  t.match(await cli(['runs', '.', '--node', 'nope'], {}, dir), { code: 2, stderr: /^judge runs: unknown node "nope"; the judgments here are: spam, tone/ })
})
