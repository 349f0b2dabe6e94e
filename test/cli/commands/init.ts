import t from 'tap'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { cli, ROOT } from '../../helpers/cli.ts'

const TSV =
  'label\tmessage\nham\tOk lar... Joking wif u oni...\nspam\tFree entry "now", txt WIN to 80082\nham\tOk lar... Joking wif u oni...\n'

t.test(
  'init writes a starter spec beside the data file and prints the next commands; a label column becomes the key and the first question',
  async (t) => {
    const dir = t.testdir({ data: { 'sms.tsv': TSV } })
    const result = await cli(['init', 'data/sms.tsv'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    const project = loadProject(join(dir, 'data/sms.judge.yaml'))
    t.same(
      project.selected[0].state.map((c) => c.name),
      ['message'],
    )
    t.equal(project.selected[0].data, join(dir, 'data/sms.tsv'))
    t.match(result.stdout, /^wrote data\/sms\.judge\.yaml for data\/sms\.tsv: state \[message\]/)
    t.match(result.stdout, /left out of the state: label \(it holds the answers/)
    t.match(
      result.stdout,
      /\nwrote data\/sms\.key\.csv: the right label of 2 states; judge test scores the answers against it\n/,
    )
    t.match(
      result.stdout,
      /\nnext:\n  judge plan data\/sms\.judge\.yaml\n  ENGINE=simulated judge run data\/sms\.judge\.yaml\n  ENGINE=simulated judge test data\/sms\.judge\.yaml\n  ENGINE=simulated judge serve\n/,
    )
    t.same(
      project.selected[0].questions.map((q) => [q.name, q.labels]),
      [
        ['label', ['ham', 'spam']],
        ['relevant', ['yes', 'no']],
        ['topic', ['request', 'problem', 'other']],
        ['priority', ['low', 'medium', 'high']],
      ],
    )
    t.equal(project.selected[0].key, join(dir, 'data/sms.key.csv'))
    t.equal(
      readFileSync(join(dir, 'data/sms.key.csv'), 'utf8'),
      'message,label\nOk lar... Joking wif u oni...,ham\n"Free entry ""now"", txt WIN to 80082",spam\n',
    )
  },
)

t.test('the printed commands work as printed', async (t) => {
  const dir = t.testdir({
    'sms.tsv': TSV,
    bin: { judge: `#!/bin/sh\nexec "${process.execPath}" --no-warnings "${join(ROOT, 'src/cli.ts')}" "$@"\n` },
  })
  chmodSync(join(dir, 'bin/judge'), 0o755)
  const result = await cli(['init', 'sms.tsv', '--json'], {}, dir)
  const printed = JSON.parse(result.stdout)
  t.match(printed, {
    spec: 'sms.judge.yaml',
    data: 'sms.tsv',
    state: ['message'],
    left_out: [{ column: 'label' }],
    key: { file: 'sms.key.csv', question: 'label', states: 2, contradicted: 0 },
  })
  const [plan, run, test] = printed.next as string[]
  t.equal(plan, 'judge plan sms.judge.yaml')
  const sh = (line: string) =>
    spawnSync('sh', ['-c', line], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
    })
  t.match(sh(plan), { status: 0, stdout: /sms\s+3\s+2\s+1\s+0\s+8\s+2/ })
  t.match(sh(run), {
    status: 0,
    stdout: /sms: 3 rows \(1 duplicate of an earlier row\), 0 answers cached, 8 asked in 2 requests/,
  })
  t.match(
    sh(test),
    { status: 0, stdout: /label: [^]*pooled: accuracy [\d.]+% \(\d of 2\)/ },
    'judge test gives an accuracy at once',
  )
})

t.test(
  'run as npm run judge --, init prints its next commands in that form, with paths from the folder npm ran it in',
  async (t) => {
    const dir = t.testdir({ 'sms.tsv': TSV })
    // npm runs the script in the package's folder: the data file's path is given from there.
    const result = spawnSync('npm', ['run', '--silent', 'judge', '--', 'init', relative(ROOT, join(dir, 'sms.tsv'))], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    })
    t.equal(result.status, 0, result.stderr)
    const spec = relative(ROOT, join(dir, 'sms.judge.yaml'))
    const next = result.stdout.split('\nnext:\n')[1].split('\n\n')[0]
    t.equal(
      next,
      [
        `  npm run judge -- plan ${spec}`,
        `  ENGINE=simulated npm run judge -- run ${spec}`,
        `  ENGINE=simulated npm run judge -- test ${spec}`,
        '  ENGINE=simulated npm run judge -- serve',
      ].join('\n'),
    )
  },
)

t.test('init never overwrites, and needs at most one readable data file', async (t) => {
  const dir = t.testdir({ 'sms.tsv': TSV, 'sms.judge.yaml': 'mine', 'empty.csv': '' })
  t.match(await cli(['init', 'sms.tsv'], {}, dir), {
    code: 2,
    stderr: /^judge init: sms\.judge\.yaml already exists; init never overwrites a spec/,
  })
  t.equal(readFileSync(join(dir, 'sms.judge.yaml'), 'utf8'), 'mine')
  t.match(await cli(['init', 'a.csv', 'b.csv'], {}, dir), {
    code: 2,
    stderr: /expected at most one data file, got a\.csv b\.csv/,
  })
  t.match(await cli(['init', 'missing.csv'], {}, dir), {
    code: 2,
    stderr: 'judge init: missing.csv: no such data file\n',
  })
  t.match(await cli(['init', 'empty.csv', '--json'], {}, dir), {
    code: 2,
    stdout: /"error":"empty\.csv: the file is empty/,
  })
})

t.test("init writes the data file's separator into the spec, so the next commands need no --delimiter", async (t) => {
  const dir = t.testdir({ 'semi.csv': 'id;text\n1;hello\n2;"a;b"\n', 'tabs.txt': 'text\tnote\nhi\tx\n' })
  const semi = await cli(['init', 'semi.csv', '--json'], {}, dir)
  t.match(JSON.parse(semi.stdout), {
    state: ['text'],
    next: ['judge plan semi.judge.yaml', 'ENGINE=simulated judge run semi.judge.yaml', 'ENGINE=simulated judge serve'],
  })
  t.match(readFileSync(join(dir, 'semi.judge.yaml'), 'utf8'), /^delimiter: ";"/m)
  t.match(await cli(['plan', 'semi.judge.yaml', '--json'], {}, dir), { code: 0, stdout: /"states": 2/ })
  t.equal((await cli(['init', 'tabs.txt', '--delimiter', 'tab', '--json'], {}, dir)).code, 0)
  t.match(readFileSync(join(dir, 'tabs.judge.yaml'), 'utf8'), /^delimiter: tab/m)
  t.match(await cli(['plan', 'tabs.judge.yaml', '--json'], {}, dir), { code: 0, stdout: /"states": 1/ })
})

t.test(
  'a file without a header line is named, with the --columns that reads it; --columns writes columns: and the key',
  async (t) => {
    const raw = TSV.split('\n').slice(1).join('\n') + 'ham\tSee you at lunch\nspam\tWIN a prize now\n'
    const dir = t.testdir({ 'sms.tsv': raw, 'nums.csv': '3,hello\n4,bye\n' })
    const stopped = await cli(['init', 'sms.tsv'], {}, dir)
    t.equal(stopped.code, 2)
    t.match(
      stopped.stderr,
      /^judge init: sms\.tsv has no header line: its first line reads as a row \("ham" in column 1 recurs in that column below it\)\. Name its columns with --columns, e\.g\. judge init sms\.tsv --columns label,text; or give --header if that line is the header\n/,
    )
    t.notOk(existsSync(join(dir, 'sms.judge.yaml')), 'nothing written')
    t.match(await cli(['init', 'nums.csv'], {}, dir), { code: 2, stderr: /"3" in column 1 is a number/ })
    t.match(await cli(['init', 'sms.tsv', '--columns', 'label'], {}, dir), {
      code: 2,
      stderr: /--columns names 1 columns; the first line of sms\.tsv has 2/,
    })
    t.match(await cli(['init', 'sms.tsv', '--columns', 'a,a'], {}, dir), {
      code: 2,
      stderr: /--columns must be distinct column names/,
    })
    const result = await cli(['init', 'sms.tsv', '--columns', 'label,message', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.match(JSON.parse(result.stdout), { state: ['message'], key: { question: 'label', states: 4 } })
    t.match(readFileSync(join(dir, 'sms.judge.yaml'), 'utf8'), /^columns: \[label, message\]$/m)
    const plan = JSON.parse((await cli(['plan', 'sms.judge.yaml', '--json'], {}, dir)).stdout)
    t.match(plan, [{ rows: 5, states: 4 }], 'the first line is read as a row')
    const test = await cli(['test', 'sms.judge.yaml', '--json'], { ENGINE: 'simulated' }, dir)
    t.equal(test.code, 0, test.stderr)
    t.equal(JSON.parse(test.stdout).sms.label.counted, 4)
  },
)

t.test(
  '--label names the answer column; --header keeps a first line that reads as a row; bad labels are told',
  async (t) => {
    const dir = t.testdir({
      'mail.csv': 'text,verdict,note\nhello,yes,a\nbuy now,no,b\nhello,no,c\nhi,yes,d\n',
      'one.csv': 'text,verdict\nhello,yes\nbye,yes\n',
      'odd.csv': 'Ok lar then,ham\nWin,spam\nOk lar then,ham\n',
      'many.csv': 'text,score\n' + Array.from({ length: 25 }, (_, i) => `t${i},s${i}\n`).join(''),
    })
    t.match(await cli(['init', 'mail.csv', '--label', 'verdit'], {}, dir), {
      code: 2,
      stderr:
        /--label verdit: mail\.csv has no such column \(did you mean verdict\?\); its columns are text, verdict, note/,
    })
    t.match(await cli(['init', 'mail.csv', '--label', 'nothing'], {}, dir), {
      code: 2,
      stderr: /has no such column; its columns are/,
    })
    const result = await cli(['init', 'mail.csv', '--label', 'verdict', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.match(JSON.parse(result.stdout), {
      state: ['text', 'note'],
      key: { question: 'verdict', states: 4, contradicted: 0 },
    })
    const spec = loadProject(join(dir, 'mail.judge.yaml')).selected[0]
    t.match(spec.questions[0], { name: 'verdict', type: 'yes_no' }, 'yes and no make a yes_no question')
    t.match(await cli(['init', 'mail.csv', '--label', 'verdict'], {}, dir), {
      code: 2,
      stderr: /mail\.key\.csv already exists/,
    })
    t.match(await cli(['init', 'one.csv', '--label', 'verdict'], {}, dir), {
      code: 2,
      stderr: /--label verdict: the column "verdict" holds one value only \("yes"\)/,
    })
    t.match(await cli(['init', 'many.csv', '--label', 'score'], {}, dir), {
      code: 2,
      stderr: /holds 25 different values; a question takes up to 20/,
    })
    t.match(
      await cli(['init', 'odd.csv', '--header', '--json'], {}, dir),
      { code: 0, stdout: /"key": null/ },
      '--header reads the first line as the header',
    )
    t.match(await cli(['init', '--label', 'x'], {}, dir), {
      code: 2,
      stderr: /--label, --state and --columns read a data file/,
    })
  },
)

t.test('a state given two labels is left out of the key, and said', async (t) => {
  const dir = t.testdir({ 'm.csv': 'message,class\nhi,a\nhi,b\nyo,a\nno,b\n,\n' })
  const result = await cli(['init', 'm.csv'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(result.stdout, /wrote m\.key\.csv: the right class of 2 states; 1 left out for giving one state two labels/)
})

t.test('without a data file it writes a starter spec and rows to try it on', async (t) => {
  const dir = t.testdir({})
  const result = await cli(['init'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.ok(existsSync(join(dir, 'starter.csv')))
  t.match(result.stdout, /judge plan starter\.judge\.yaml\n/)
  t.match(await cli(['run', 'starter.judge.yaml'], { ENGINE: 'simulated' }, dir), {
    code: 0,
    stdout: /starter: 3 rows/,
  })
  t.match(await cli(['init'], {}, dir), { code: 2, stderr: /starter\.csv already exists/ })
})

t.test(
  'a spec outside the served folder gets JUDGE_PROJECTS in the serve command; the program is as given',
  async (t) => {
    const root = t.testdir({ elsewhere: { 'm.csv': 'message\nhi\n' }, here: {} })
    const result = await cli(['init', '../elsewhere/m.csv', '--json'], {}, join(root, 'here'))
    // The in-process CLI has no program of its own: `judge` stands in.
    const { next, spec } = JSON.parse(result.stdout)
    t.equal(spec, '../elsewhere/m.judge.yaml', 'paths relative to where init ran, climbing where they must')
    t.equal(next[0], 'judge plan ../elsewhere/m.judge.yaml')
    t.equal(next[2], 'JUDGE_PROJECTS=../elsewhere ENGINE=simulated judge serve')
  },
)

t.test('a dangling symlink where init would write is a file that exists: the usual message, exit 2', async (t) => {
  const dir = t.testdir({ 'sms.tsv': TSV, away: {} })
  const cleanExit = (result: { code: number; stderr: string }, name: string) => {
    t.equal(result.code, 2, name)
    t.notMatch(result.stderr, /unexpected error|EEXIST|\n\s+at /, `${name}: no stack`)
  }
  symlinkSync(join(dir, 'away/spec.yaml'), join(dir, 'sms.judge.yaml'))
  const spec = await cli(['init', 'sms.tsv'], {}, dir)
  cleanExit(spec, 'the spec')
  t.match(spec.stderr, /^judge init: sms\.judge\.yaml already exists; init never overwrites a spec/)
  rmSync(join(dir, 'sms.judge.yaml'))
  symlinkSync(join(dir, 'away/key.csv'), join(dir, 'sms.key.csv'))
  const key = await cli(['init', 'sms.tsv'], {}, dir)
  cleanExit(key, 'the key')
  t.match(key.stderr, /^judge init: sms\.key\.csv already exists; init never overwrites a file/)
  t.notOk(existsSync(join(dir, 'sms.judge.yaml')), 'and the spec is not written either')

  symlinkSync(join(dir, 'away/starter.yaml'), join(dir, 'starter.judge.yaml'))
  const starter = await cli(['init'], {}, dir)
  cleanExit(starter, 'the starter spec')
  t.match(starter.stderr, /starter\.judge\.yaml already exists/)
  t.notOk(existsSync(join(dir, 'starter.csv')), 'nor its rows')
  symlinkSync(join(dir, 'away/starter.csv'), join(dir, 'starter.csv'))
  rmSync(join(dir, 'starter.judge.yaml'))
  const rows = await cli(['init'], {}, dir)
  cleanExit(rows, 'the starter rows')
  t.match(rows.stderr, /starter\.csv already exists; init never overwrites a file/)
  t.same(readdirSync(join(dir, 'away')), [], 'nothing was written through a link')
  t.same(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
    'and no file is left beside them',
  )
})
