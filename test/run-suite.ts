import t from 'tap'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  areaOf,
  countsOf,
  groups,
  pack,
  passed,
  readDurations,
  knownDurations,
  SEED,
  report,
  runAll,
  runFile,
  runSuite,
  schedule,
  seedText,
  SHORT_FILES,
  simulations,
  simulationUnit,
  skipsOf,
  testFiles,
  writeDurations,
  type FileResult,
} from './helpers/run-suite.ts'

const TAP_PASS =
  'TAP version 14\n# Subtest: works\n    ok 1 - fine\n    1..1\nok 1 - works # time=1ms\nok 2 - needs a browser # SKIP chromium is missing\n1..2\n# { total: 2, pass: 1, skip: 1 }\n# time=3ms\n'
const TAP_FAIL =
  'TAP version 14\nnot ok 1 - should be equal\n  ---\n  found: 1\n  wanted: 2\n  ...\n1..1\n# { total: 1, pass: 0, fail: 1 }\n'
const result = (file: string, output: string, over: Partial<FileResult> = {}): FileResult => ({
  file,
  files: 1,
  code: 0,
  output,
  ms: 100,
  timedOut: false,
  ...over,
})

t.test("a file's counts are the last summary line of its TAP, 0 when it printed none", async (t) => {
  t.same(countsOf(TAP_PASS), { total: 2, pass: 1, fail: 0, skip: 1 })
  t.same(countsOf(TAP_FAIL), { total: 1, pass: 0, fail: 1, skip: 0 })
  t.same(countsOf('Error: boom\n'), { total: 0, pass: 0, fail: 0, skip: 0 })
  t.same(skipsOf(TAP_PASS), ['needs a browser (chromium is missing)'])
})

t.test('a file passes when it exits 0 in time and tap counted no failure', async (t) => {
  t.ok(passed(result('a', TAP_PASS)))
  t.notOk(passed(result('a', TAP_FAIL)), 'a failed assertion')
  t.notOk(passed(result('a', TAP_PASS, { code: 1 })), 'an exit status')
  t.notOk(passed(result('a', TAP_PASS, { code: null, timedOut: true })), 'a timeout')
})

t.test('the report is quiet while files pass, whole for a failed one, with the summary CI reads', async (t) => {
  const text = report([
    result('test/a.ts', TAP_PASS),
    result('test/b.ts', TAP_FAIL, { code: 1, ms: 2500 }),
    result('test/c.ts', '', { code: null, timedOut: true }),
  ])
  t.match(
    text,
    /^skipped: needs a browser \(chromium is missing\)\n# test\/b\.ts failed \(exit 1\)\nTAP version 14\nnot ok 1 - should be equal\n/,
  )
  t.match(text, /\n# test\/c\.ts failed \(timed out\)\n/)
  t.notMatch(text, /# Subtest: works/, "a passing file's TAP is not shown")
  t.match(
    text,
    /\n# \{ total: 3, pass: 1, fail: 2, skip: 1 \}\ntest files: 1 passed, 2 failed, in 3 processes\nslowest: test\/b\.ts 2\.5 s, test\/a\.ts 0\.1 s, test\/c\.ts 0\.1 s\n$/,
  )
  t.match(
    report([result('test/a.ts', TAP_PASS)]),
    /\n# \{ total: 2, pass: 1, skip: 1 \}\ntest files: 1 passed, 0 failed, in 1 processes\n/,
  )
})

t.test('the files run are the test files, less helpers, fixtures and, unless named, the slow ones', async (t) => {
  const root = t.testdir({
    test: {
      'a.ts': '',
      'notes.md': '',
      helpers: { 'h.ts': '' },
      fixtures: { 'f.ts': '' },
      browser: { 'b.ts': '' },
      'package.ts': '',
      core: { 'c.ts': '' },
    },
  })
  t.same(testFiles([], root), ['test/a.ts', 'test/core/c.ts'])
  t.same(testFiles(['test/browser', 'test/package.ts'], root), ['test/browser/b.ts', 'test/package.ts'])
})

t.test('a file runs as its own process: its exit, its output, and a timeout that kills it', async (t) => {
  const root = t.testdir({ test: {} })
  const write = (name: string, text: string) => writeFileSync(join(root, 'test', name), text)
  write('ok.ts', 'console.log("# { total: 1, pass: 1 }")\n')
  write('bad.ts', 'console.error("boom"); process.exitCode = 3\n')
  write(
    'hang.ts',
    'import { spawn } from "node:child_process"\nconst c = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })\nconsole.log(c.pid)\nsetInterval(() => {}, 1000)\n',
  )
  const options = { root, mockLoader: join(process.cwd(), 'node_modules/@tapjs/mock/dist/esm/import.mjs') }
  t.match(await runFile('test/ok.ts', 10_000, options), {
    file: 'test/ok.ts',
    code: 0,
    output: '# { total: 1, pass: 1 }\n',
    timedOut: false,
  })
  t.match(await runFile('test/bad.ts', 10_000, options), { code: 3, output: 'boom\n' })
  // Long enough for the test to start its process however busy the machine is.
  const hung = await runFile('test/hang.ts', 8000, options)
  t.match(hung, { timedOut: true })
  t.notOk(passed(hung))
  const grandchild = Number(hung.output.trim())
  t.ok(grandchild > 0, 'the hung test started a process')
  await new Promise((done) => setTimeout(done, 100))
  // Gone, or dead and waiting to be reaped by whoever inherits it.
  const state = existsSync(`/proc/${grandchild}/stat`)
    ? readFileSync(`/proc/${grandchild}/stat`, 'utf8').split(') ')[1]?.[0]
    : 'gone'
  t.ok(state === 'gone' || state === 'Z', `a timeout also ends the processes the test started (${state})`)
})

t.test(
  'a folder runs in one process; one that fails together runs again file by file, to name the file that fails alone',
  async (t) => {
    const root = t.testdir({ test: { ok: {}, mixed: {}, apart: {} } })
    const write = (name: string, text: string) => writeFileSync(join(root, 'test', name), text)
    const ok = 'console.log("# { total: 1, pass: 1 }")\n'
    write('ok/a.ts', `${ok}console.error(process.argv[1])\n`)
    write('ok/b.ts', `${ok}console.error(process.argv[1])\n`)
    write('mixed/good.ts', ok)
    write('mixed/bad.ts', 'console.log("# { total: 1, pass: 0, fail: 1 }"); process.exitCode = 1\n')
    // Each passes alone; together the second trips on what the first left behind.
    write('apart/first.ts', `${ok}globalThis.leftBehind = true\n`)
    write('apart/second.ts', `${ok}if (globalThis.leftBehind) process.exitCode = 1\n`)
    const options = { root, mockLoader: join(process.cwd(), 'node_modules/@tapjs/mock/dist/esm/import.mjs') }
    const notes: string[] = []
    const files = [
      'test/apart/first.ts',
      'test/apart/second.ts',
      'test/mixed/bad.ts',
      'test/mixed/good.ts',
      'test/ok/a.ts',
      'test/ok/b.ts',
    ]
    const results = await runAll(files, 2, 10_000, options, notes)
    t.same(
      results.map((r) => [r.file, r.files, passed(r)]),
      [
        ['test/apart/', 2, false],
        ['test/mixed/bad.ts', 1, false],
        ['test/mixed/good.ts', 1, true],
        ['test/ok/', 2, true],
      ],
    )
    t.match(
      results.find((r) => r.file === 'test/ok/')!.output,
      /test\/ok\/a\.ts\n[\s\S]*test\/ok\/b\.ts\n/,
      'each file sees itself as the script run',
    )
    t.same(notes, [
      'test/apart/ failed together (exit 1) though each file passes alone: a file depends on what another leaves behind or on their order',
    ])
  },
)

t.test('two files that pass apart and fail together fail the suite', async (t) => {
  const root = t.testdir({ 'package.json': '{}', test: { shared: {}, cache: {} } })
  const write = (name: string, text: string) => writeFileSync(join(root, 'test', name), text)
  // The first leaves a global behind that the second does not expect: alone, each starts clean.
  write('shared/first.ts', 'Object.assign(globalThis, { leftBehind: true })\nconsole.log("# { total: 1, pass: 1 }")\n')
  write(
    'shared/second.ts',
    'const left = "leftBehind" in globalThis\n' +
      'console.log(left ? "not ok 1 - a global another test left\\n# { total: 1, pass: 0, fail: 1 }" : "# { total: 1, pass: 1 }")\n' +
      'if (left) process.exitCode = 1\n',
  )
  const options = {
    root,
    mockLoader: join(process.cwd(), 'node_modules/@tapjs/mock/dist/esm/import.mjs'),
    jobs: 1,
    timeoutMs: 10_000,
    durations: join(root, 'test/cache/durations.json'),
  }
  // Alone: each passes.
  for (const file of ['test/shared/first.ts', 'test/shared/second.ts'])
    t.equal((await runSuite([file], options)).code, 0, `${file} passes alone`)
  const { code, text } = await runSuite(['test/shared'], options)
  t.equal(code, 1, 'together, the suite fails')
  t.match(text, /^# test\/shared\/ failed together \(exit 1\) though each file passes alone/)
  t.match(text, /\n# test\/shared\/ failed \(exit 1\)\n[\s\S]*not ok 1 - a global another test left/, 'with its output')
  t.match(text, /\ntest files: 0 passed, 2 failed, in 1 processes\n/)
  t.notOk(readDurations(options.durations).has('test/shared/'), 'and its time is not kept as a passing run')
})

t.test("a test file gets the runner's time limit, not tap's own 30 s", async (t) => {
  const root = t.testdir({ test: { 'limit.ts': 'console.log(process.env.TAP_TIMEOUT)\n' } })
  const options = { root, mockLoader: join(process.cwd(), 'node_modules/@tapjs/mock/dist/esm/import.mjs') }
  t.equal((await runFile('test/limit.ts', 900_000, options)).output, '900\n')
})

t.test(
  'an area of test/ runs in one process, its subfolders with it; short files of test/ itself run together',
  async (t) => {
    t.equal(areaOf('test/http/ops/metrics.ts'), 'test/http')
    t.equal(areaOf('test/http/server.ts'), 'test/http')
    t.equal(areaOf('test/cli.ts'), 'test/cli.ts', 'a file of test/ is its own')
    t.same(
      [...groups(['test/a.ts', 'test/http/ops/m.ts', 'test/http/x.ts', 'test/core/stats/b.ts'])],
      [
        ['test/a.ts', ['test/a.ts']],
        ['test/http', ['test/http/ops/m.ts', 'test/http/x.ts']],
        ['test/core', ['test/core/stats/b.ts']],
      ],
    )
    const units: [string, string[]][] = [
      ['test/http', ['test/http/x.ts']],
      ['test/a.ts', ['test/a.ts']],
      ['test/b.ts', ['test/b.ts']],
      ['test/long.ts', ['test/long.ts']],
      ['test/new.ts', ['test/new.ts']],
    ]
    const durations = new Map([
      ['test/http/', 300],
      ['test/a.ts', 400],
      ['test/b.ts', 1499],
      ['test/long.ts', 1500],
    ])
    t.same(
      pack(units, durations),
      [
        ['test/http', ['test/http/x.ts']],
        ['test/long.ts', ['test/long.ts']],
        ['test/new.ts', ['test/new.ts']],
        [SHORT_FILES, ['test/a.ts', 'test/b.ts']],
      ],
      'a folder, a long file and one not timed yet stay apart',
    )
    t.same(pack(units.slice(0, 3), new Map([['test/a.ts', 400]])), units.slice(0, 3), 'one short file stays alone')
    const print = 'console.log(`# { total: 1, pass: 1 }`)\n'
    const root = t.testdir({ test: { 'a.ts': print, 'b.ts': print } })
    const options = { root, mockLoader: join(process.cwd(), 'node_modules/@tapjs/mock/dist/esm/import.mjs') }
    const results = await runAll(['test/a.ts', 'test/b.ts'], 2, 10_000, options, [], durations)
    t.same(
      results.map((r) => [r.file, r.files, passed(r)]),
      [[SHORT_FILES, 2, true]],
      'run in one process, named as the pack',
    )
  },
)

t.test(
  'units start longest first: by their last duration, or, not timed yet, by an estimate from their files',
  async (t) => {
    const units: [string, string[]][] = [
      ['test/a', ['test/a/1.ts', 'test/a/2.ts']],
      ['test/b', ['test/b/1.ts', 'test/b/2.ts', 'test/b/3.ts']],
      ['test/e2e.ts', ['test/e2e.ts']],
      ['test/c/d', ['test/c/d/1.ts']],
    ]
    t.same(
      schedule(units).map((u) => u[0]),
      ['test/e2e.ts', 'test/b', 'test/a', 'test/c/d'],
      'a file of test/ itself counts six files',
    )
    t.same(
      schedule([...units, [simulationUnit('test/core'), ['test/core/s.ts', 'test/core/t.ts']]])[0][0],
      simulationUnit('test/core'),
      'a simulation five',
    )
    const durations = new Map([
      ['test/a/', 9000],
      ['test/e2e.ts', 500],
      ['test/c/d/1.ts', 3000],
    ])
    t.same(
      schedule(units, durations).map((u) => u[0]),
      ['test/a', 'test/b', 'test/c/d', 'test/e2e.ts'],
      'timed: by the last run; test/b, not timed, by its estimate',
    )
    t.same(
      schedule([
        ['test/y', ['test/y/1.ts']],
        ['test/x', ['test/x/1.ts']],
      ]).map((u) => u[0]),
      ['test/x', 'test/y'],
      'equal ones by name',
    )
  },
)

t.test(
  'a run keeps the durations of its passed units for the next, and an unreadable file is no durations',
  async (t) => {
    const dir = t.testdir({ 'bad.json': '{' })
    const file = join(dir, 'cache', 'durations.json')
    t.same(readDurations(file), new Map(), 'never written')
    t.same(readDurations(join(dir, 'bad.json')), new Map(), 'unreadable')
    writeDurations([result('test/a/', TAP_PASS, { ms: 1234.4 }), result('test/b.ts', TAP_FAIL, { code: 1 })], file)
    t.same(readDurations(file), new Map([['test/a/', 1234]]), 'a failed unit is not kept')
    writeDurations([result('test/c.ts', TAP_PASS, { ms: 10 })], file)
    t.same(
      readDurations(file),
      new Map([
        ['test/a/', 1234],
        ['test/c.ts', 10],
      ]),
      'a later run adds to them',
    )
  },
)

t.test("a clone without durations of its own schedules by the repository's record, its own taking over", async (t) => {
  const dir = t.testdir({
    'seed.json': JSON.stringify({ 'test/cli/commands/': 35_000, 'test/a.ts': 500 }),
    'own.json': JSON.stringify({ 'test/a.ts': 900 }),
  })
  const seed = join(dir, 'seed.json')
  t.same(
    knownDurations(join(dir, 'missing.json'), seed),
    new Map([
      ['test/cli/commands/', 35_000],
      ['test/a.ts', 500],
    ]),
  )
  t.same(knownDurations(join(dir, 'own.json'), seed).get('test/a.ts'), 900, "the clone's own duration wins")
  const record = readDurations(SEED)
  t.ok(record.size > 0, 'the repository keeps a record')
  const units = [...groups(testFiles([]), simulations())].map(([folder, files]) =>
    files.length === 1 && !folder.endsWith(')') ? files[0] : folder.endsWith(')') ? folder : `${folder}/`,
  )
  const unrecorded = units.filter((u) => !record.has(u))
  t.ok(unrecorded.length <= units.length / 10, `most units are in the record (not: ${unrecorded.join(', ')})`)
})

t.test(
  "the repository's record keeps the units there are now and each file of test/, to the tenth of a second",
  async (t) => {
    const files = ['test/a.ts', 'test/core/x/1.ts', 'test/core/x/s.ts', 'test/core/y/2.ts']
    const durations = new Map([
      ['test/a.ts', 420],
      [SHORT_FILES, 2049],
      ['test/core/', 8760],
      [simulationUnit('test/core/x'), 5000],
      ['test/core/x/', 300],
      ['test/gone.ts', 900],
    ])
    t.same(JSON.parse(seedText(durations, files, ['test/core/x/s.ts'])), {
      [SHORT_FILES]: 2000,
      'test/a.ts': 400,
      'test/core/': 8800,
      [simulationUnit('test/core/x')]: 5000,
    })
  },
)

t.test(
  'under coverage the simulations of test:slow in core/ and app/ run apart from their folders, in processes that collect none',
  async (t) => {
    const slow =
      'JUDGE_SLOW=1 node test/helpers/run-suite.ts test/core/x/a-simulation.ts test/app/b-simulation.ts test/e2e.ts test/browser'
    const root = t.testdir({
      'package.json': JSON.stringify({ scripts: { 'test:slow': slow } }),
      test: { core: { x: {} }, app: {} },
      none: { 'package.json': '{}' },
    })
    t.same(
      simulations(root),
      ['test/core/x/a-simulation.ts', 'test/app/b-simulation.ts'],
      'not the end-to-end files, nor folders',
    )
    t.same(simulations(join(root, 'none')), [], 'no test:slow, no simulations')
    const files = ['test/app/b-simulation.ts', 'test/app/c.ts', 'test/core/x/a-simulation.ts', 'test/core/x/d.ts']
    t.same(
      [...groups(files, simulations(root))],
      [
        [simulationUnit('test/app'), ['test/app/b-simulation.ts']],
        ['test/app', ['test/app/c.ts']],
        [simulationUnit('test/core/x'), ['test/core/x/a-simulation.ts']],
        ['test/core', ['test/core/x/d.ts']],
      ],
      'the rest of an area together, its subfolders with it',
    )
    t.equal(simulationUnit('test/app'), 'test/app/ (simulations, no coverage)')
    const write = (name: string, text: string) => writeFileSync(join(root, name), text)
    const print = 'console.log(`# { total: 1, pass: 1 } ${process.env.NODE_V8_COVERAGE || "none"}`)\n'
    for (const f of files) write(f, print)
    const saved = process.env.NODE_V8_COVERAGE
    process.env.NODE_V8_COVERAGE = join(root, 'coverage')
    t.teardown(() =>
      saved === undefined ? delete process.env.NODE_V8_COVERAGE : (process.env.NODE_V8_COVERAGE = saved),
    )
    const options = { root, mockLoader: join(process.cwd(), 'node_modules/@tapjs/mock/dist/esm/import.mjs') }
    const results = await runAll(files, 2, 10_000, options, [], new Map(), simulations(root))
    t.same(
      results.map((r) => [r.file, r.files, passed(r)]),
      [
        [simulationUnit('test/app'), 1, true],
        ['test/app/c.ts', 1, true],
        [simulationUnit('test/core/x'), 1, true],
        ['test/core/x/d.ts', 1, true],
      ],
    )
    t.match(results[0].output, /none\n/, 'the simulations collect no coverage')
    t.match(results[2].output, /none\n/)
    t.match(results[1].output, join(root, 'coverage'), 'the others do')
  },
)

t.test('run as a command, the runner runs the files named and reports them', async (t) => {
  const { spawnSync } = await import('node:child_process')
  const run = spawnSync(process.execPath, ['test/helpers/run-suite.ts', 'test/version.ts'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_V8_COVERAGE: '' },
  })
  t.equal(run.status, 0, run.stderr)
  t.match(run.stdout, /^test files: 1 passed, 0 failed, in 1 processes$/m)
})
