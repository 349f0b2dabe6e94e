import t from 'tap'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { cli, ROOT } from '../../helpers/cli.ts'

const TSV = 'label\tmessage\nham\tOk lar... Joking wif u oni...\nspam\tFree entry "now", txt WIN to 80082\nham\tOk lar... Joking wif u oni...\n'

t.test('init writes a starter spec beside the data file and prints the next three commands', async (t) => {
  const dir = t.testdir({ data: { 'sms.tsv': TSV } })
  const result = await cli(['init', 'data/sms.tsv'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  const project = loadProject(join(dir, 'data/sms.judge.yaml'))
  t.same(project.selected[0].state.map((c) => c.name), ['message'])
  t.equal(project.selected[0].data, join(dir, 'data/sms.tsv'))
  t.match(result.stdout, /^wrote data\/sms\.judge\.yaml for data\/sms\.tsv: state \[message\]/)
  t.match(result.stdout, /left out of the state: label \(it looks like an answer/)
  t.match(result.stdout, /\nnext:\n  judge plan data\/sms\.judge\.yaml\n  ENGINE=simulated judge run data\/sms\.judge\.yaml\n  ENGINE=simulated judge serve\n/)
})

t.test('the printed commands work as printed', async (t) => {
  const dir = t.testdir({ 'sms.tsv': TSV, bin: { judge: `#!/bin/sh\nexec "${process.execPath}" --no-warnings "${join(ROOT, 'src/cli.ts')}" "$@"\n` } })
  chmodSync(join(dir, 'bin/judge'), 0o755)
  const result = await cli(['init', 'sms.tsv', '--json'], {}, dir)
  const printed = JSON.parse(result.stdout)
  t.match(printed, { spec: 'sms.judge.yaml', data: 'sms.tsv', state: ['message'], left_out: [{ column: 'label' }] })
  const [plan, run] = printed.next as string[]
  t.equal(plan, 'judge plan sms.judge.yaml')
  const sh = (line: string) => spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}` } })
  t.match(sh(plan), { status: 0, stdout: /sms\s+3\s+2\s+1\s+0\s+6\s+2/ })
  t.match(sh(run), { status: 0, stdout: /sms: 3 rows \(1 duplicate of an earlier row\), 0 answers cached, 6 asked in 2 requests/ })
})

t.test('init never overwrites, and needs at most one readable data file', async (t) => {
  const dir = t.testdir({ 'sms.tsv': TSV, 'sms.judge.yaml': 'mine', 'empty.csv': '' })
  t.match(await cli(['init', 'sms.tsv'], {}, dir), { code: 2, stderr: /^judge init: sms\.judge\.yaml already exists; init never overwrites a spec/ })
  t.equal(readFileSync(join(dir, 'sms.judge.yaml'), 'utf8'), 'mine')
  t.match(await cli(['init', 'a.csv', 'b.csv'], {}, dir), { code: 2, stderr: /expected at most one data file, got a\.csv b\.csv/ })
  t.match(await cli(['init', 'missing.csv'], {}, dir), { code: 2, stderr: 'judge init: missing.csv: no such data file\n' })
  t.match(await cli(['init', 'empty.csv', '--json'], {}, dir), { code: 2, stdout: /"error":"empty\.csv: the file is empty/ })
})

t.test('a separator other than the extension\'s is carried into the next commands', async (t) => {
  const dir = t.testdir({ 'semi.csv': 'id;text\n1;hello\n2;"a;b"\n', 'tabs.txt': 'text\tnote\nhi\tx\n' })
  const semi = await cli(['init', 'semi.csv', '--json'], {}, dir)
  t.match(JSON.parse(semi.stdout), { state: ['text'], next: ["judge plan semi.judge.yaml --delimiter ';'", "ENGINE=simulated judge run semi.judge.yaml --delimiter ';'", 'ENGINE=simulated judge serve'] })
  t.match(await cli(['plan', 'semi.judge.yaml', '--delimiter', ';', '--json'], {}, dir), { code: 0, stdout: /"states": 2/ })
  const tabs = await cli(['init', 'tabs.txt', '--delimiter', 'tab', '--json'], {}, dir)
  t.match(JSON.parse(tabs.stdout).next[0], 'judge plan tabs.judge.yaml --delimiter tab')
})

t.test('without a data file it writes a starter spec and rows to try it on', async (t) => {
  const dir = t.testdir({})
  const result = await cli(['init'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.ok(existsSync(join(dir, 'starter.csv')))
  t.match(result.stdout, /judge plan starter\.judge\.yaml\n/)
  t.match(await cli(['run', 'starter.judge.yaml'], { ENGINE: 'simulated' }, dir), { code: 0, stdout: /starter: 3 rows/ })
  t.match(await cli(['init'], {}, dir), { code: 2, stderr: /starter\.csv already exists/ })
})

t.test('a spec outside the served folder gets JUDGE_PROJECTS in the serve command; the program is as given', async (t) => {
  const root = t.testdir({ elsewhere: { 'm.csv': 'message\nhi\n' }, here: {} })
  const result = await cli(['init', '../elsewhere/m.csv', '--json'], {}, join(root, 'here'))
  // The in-process CLI has no program of its own: `judge` stands in.
  t.equal(JSON.parse(result.stdout).next[2], `JUDGE_PROJECTS=${join(root, 'elsewhere')} ENGINE=simulated judge serve`)
})
