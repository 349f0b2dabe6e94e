import t from 'tap'
import { invocation, shellWord, type Launch } from '../../src/cli/invocation.ts'

const base: Launch = {
  script: '/home/a/proj/node_modules/.bin/judge',
  execPath: '/usr/bin/node',
  env: { PATH: '/usr/bin:/bin' },
  cwd: '/home/a/proj',
  packageName: 'judge-rows',
}

t.test('printed commands run judge the way it was run', async (t) => {
  t.equal(invocation(base), 'node_modules/.bin/judge', 'a local bin not on PATH: its path')
  t.equal(
    invocation({ ...base, cwd: '/tmp' }),
    '/home/a/proj/node_modules/.bin/judge',
    'from elsewhere: the absolute path',
  )
  t.equal(
    invocation({ ...base, env: { PATH: '/usr/bin:/home/a/proj/node_modules/.bin' } }),
    'judge',
    'on PATH: its name',
  )
  t.equal(
    invocation({
      ...base,
      script: '/usr/lib/node_modules/judge-rows/bin/judge.js',
      env: { PATH: '/usr/lib/node_modules/judge-rows/bin' },
    }),
    'judge.js',
  )
  t.equal(
    invocation({ ...base, env: { npm_command: 'exec', PATH: '/home/a/proj/node_modules/.bin' } }),
    'npx judge',
    'npx of an installed package',
  )
  t.equal(
    invocation({ ...base, cwd: '/home/a/proj/data', env: { npm_command: 'exec' } }),
    'npx judge',
    'npx finds it in a folder above',
  )
  t.equal(
    invocation({ ...base, script: '/root/.npm/_npx/ab12/node_modules/.bin/judge', env: { npm_command: 'exec' } }),
    'npx judge-rows',
    'npx of a fetched package',
  )
  t.equal(invocation({ ...base, env: { npm_command: 'run-script', npm_lifecycle_event: 'judge' } }), 'npm run judge --')
  t.equal(
    invocation({ ...base, env: { npm_command: 'run', npm_lifecycle_event: 'judge' } }),
    'npm run judge --',
    "npm 11's name for npm run",
  )
  t.equal(
    invocation({
      ...base,
      cwd: '/home/a/tickets',
      execPath: '/home/a/proj/node_modules/node/bin/node',
      script: '/home/a/proj/bin/judge.js',
    }),
    '../proj/node_modules/node/bin/node ../proj/bin/judge.js',
    'a clone beside the working folder: relative paths, shorter than absolute ones',
  )
  t.equal(
    invocation({ ...base, script: '/home/a/proj/src/cli.ts', execPath: '/home/a/proj/node_modules/node/bin/node' }),
    'node_modules/node/bin/node src/cli.ts',
  )
  t.equal(
    invocation({ ...base, script: '/home/a/proj/judge.js' }),
    './judge.js',
    'a script in the working folder is not looked up on PATH',
  )
  const clone = { ...base, script: '/home/a/proj/bin/judge.js', execPath: '/home/a/proj/node_modules/node/bin/node' }
  t.equal(
    invocation(clone),
    'node_modules/node/bin/node bin/judge.js',
    "a clone's bin run by its pinned Node, which is not on PATH: with that Node",
  )
  t.equal(
    invocation({ ...clone, env: { PATH: '/home/a/proj/node_modules/node/bin:/usr/bin' } }),
    'bin/judge.js',
    'with that Node on PATH, the script alone',
  )
})

t.test('shell words are quoted only when needed', async (t) => {
  t.equal(shellWord('a/b-c.d'), 'a/b-c.d')
  t.equal(shellWord('my data.csv'), "'my data.csv'")
  t.equal(shellWord("it's"), "'it'\\''s'")
})
