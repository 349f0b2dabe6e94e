import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import TerseReporter from './helpers/terse-reporter.ts'
import { ROOT } from './helpers/cli.ts'

async function report(tap: string, chunk = 7): Promise<string> {
  const reporter = new TerseReporter()
  let out = ''
  reporter.on('data', (d) => (out += d))
  const ended = new Promise((done) => reporter.on('end', done))
  for (let i = 0; i < tap.length; i += chunk) reporter.write(tap.slice(i, i + chunk))
  reporter.end()
  await ended
  return out
}

const PASSING = `TAP version 14
# Subtest: test/a.ts
    # Subtest: works
        ok 1 - should be equal
        1..1
    ok 1 - works # time=1ms
    ok 2 - needs a browser # SKIP chromium is missing
    1..2
ok 1 - test/a.ts # time=3ms
`
const FAILING = `# Subtest: test/b.ts
    not ok 1 - should be equal
      ---
      diff: |
        -2
        +1
      ...
    1..1
not ok 2 - test/b.ts # time=2ms
  ---
  exitCode: 1
  ...

1..2
# { total: 3, pass: 1, fail: 1, skip: 1 }
# time=30ms
`

t.test('passing files print nothing but their skips; a failing file prints its whole TAP; tap\'s summary stays', async (t) => {
  const out = await report(PASSING + FAILING)
  t.equal(out, [
    'skipped: needs a browser (chromium is missing)',
    FAILING.slice(0, FAILING.indexOf('\n1..2')),
    '# { total: 3, pass: 1, fail: 1, skip: 1 }',
    '# time=30ms',
    'test files: 1 passed, 1 failed',
    '',
  ].join('\n'))
  t.equal(await report(PASSING), 'skipped: needs a browser (chromium is missing)\ntest files: 1 passed, 0 failed\n')
})

t.test('npm test runs tap with this reporter and a one-line coverage summary', async (t) => {
  const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.test
  t.match(script, /tap --reporter=\.\/test\/helpers\/terse-reporter\.ts$/)
  t.notMatch(script, /--reporter text( |$)/)
  t.match(readFileSync(join(ROOT, '.ci/run'), 'utf8'), /grep -E '\^# \\\{ total: '/, 'CI still reads tap\'s summary line')
})
