import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { useStrippedCache } from './helpers/run-suite.ts'

// The load hook the test runner gives every process (test/helpers/stripped-cache.js): a TypeScript
// file runs as Node itself would run it, and its stripped text is kept for the next process.

const SOURCE = 'const greeting: string = "hello"\nconsole.log(greeting, new Error().stack!.split("\\n")[1].trim())\n'

/** Runs `file` in a process with the runner's hook, as the test runner starts one. */
function run(dir: string, file: string, cache: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' }
  useStrippedCache(env, cache)
  return spawnSync(process.execPath, [file], { cwd: dir, env, encoding: 'utf8' })
}

t.test('a TypeScript file runs as under Node alone, and its stripped text is kept for the next process', async (t) => {
  const dir = t.testdir({ 'package.json': '{"type":"module"}', 'hello.ts': SOURCE })
  const cache = join(dir, 'cache')
  const plain = spawnSync(process.execPath, ['--no-warnings', 'hello.ts'], { cwd: dir, encoding: 'utf8' })
  const first = run(dir, 'hello.ts', cache)
  t.equal(first.status, 0, first.stderr)
  t.equal(first.stdout, plain.stdout, 'the same output, the stack naming the .ts file at the same line and column')
  t.match(first.stdout, /^hello at file:.*hello\.ts:2:/)
  t.equal(first.stderr, '', 'no warning that stripping is experimental')
  const kept = readdirSync(cache)
  t.equal(kept.length, 1, 'one file kept, nothing left aside')
  const url = pathToFileURL(join(dir, 'hello.ts')).href
  // The types blanked out, every offset kept, and the URL that stack traces name.
  const blanked = SOURCE.replace(': string', '        ').replace('stack!', 'stack ')
  t.equal(readFileSync(join(cache, kept[0]), 'utf8'), `${blanked}\n\n//# sourceURL=${url}`)

  // The next process reads the kept text and strips nothing: a changed copy shows it.
  writeFileSync(join(cache, kept[0]), 'console.log("from the cache")\n')
  t.equal(run(dir, 'hello.ts', cache).stdout, 'from the cache\n')
  // A changed file is a new key.
  writeFileSync(join(dir, 'hello.ts'), SOURCE.replace('hello', 'again'))
  t.match(run(dir, 'hello.ts', cache).stdout, /^again at /)
  t.equal(readdirSync(cache).length, 2)
})

t.test('the hook is named once in NODE_OPTIONS, after what was there', async (t) => {
  const env: NodeJS.ProcessEnv = { NODE_OPTIONS: '--max-old-space-size=512' }
  useStrippedCache(env, '/tmp/x')
  useStrippedCache(env, '/tmp/x')
  t.match(env.NODE_OPTIONS, /^--max-old-space-size=512 --import=file:.*\/test\/helpers\/stripped-cache\.js$/)
  t.equal(env.JUDGE_TEST_STRIPPED, '/tmp/x')
})

t.test('without a cache named, the hook leaves loading to Node', async (t) => {
  const dir = t.testdir({ 'package.json': '{"type":"module"}', 'hello.ts': SOURCE })
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' }
  useStrippedCache(env, '')
  const ran = spawnSync(process.execPath, ['--no-warnings', 'hello.ts'], { cwd: dir, env, encoding: 'utf8' })
  t.match(ran.stdout, /^hello at /)
  t.same(readdirSync(dir).sort(), ['hello.ts', 'package.json'])
})
