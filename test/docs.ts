import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ENV_VARIABLES } from '../src/config.ts'
import { COMMANDS } from '../src/cli/run-cli.ts'
import { SPEC_KEYS } from '../src/core/spec/spec-parse.ts'
import { cli } from './helpers/cli.ts'

const root = resolve(import.meta.dirname, '..')
const read = (file: string) => readFileSync(join(root, file), 'utf8')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
  })
}

t.test('every environment variable the code reads is documented', async (t) => {
  const doc = read('docs/configuration.md')
  const named = new Set<string>(ENV_VARIABLES)
  for (const file of sources(join(root, 'src'))) {
    for (const [, a, b] of readFileSync(file, 'utf8').matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) named.add(a ?? b)
  }
  for (const name of named) t.ok(doc.includes(`\`${name}\``), `${name} is in docs/configuration.md`)
})

t.test('every CLI command and flag is documented', async (t) => {
  const doc = read('docs/cli.md')
  for (const command of Object.keys(COMMANDS)) {
    t.ok(doc.includes(`judge ${command}`), `judge ${command} is in docs/cli.md`)
    const { stdout } = await cli([command, '--help'], {}, root)
    for (const [flag] of stdout.matchAll(/--[a-z][a-z-]*/g)) t.ok(doc.includes(flag), `${command} ${flag} is in docs/cli.md`)
  }
})

t.test('every spec key is documented', async (t) => {
  const doc = read('docs/spec-format.md')
  for (const key of SPEC_KEYS) t.ok(doc.includes(`\`${key}\``), `${key} is in docs/spec-format.md`)
})

t.test('the README\'s two commands are what CI runs', async (t) => {
  const readme = read('README.md')
  t.match(readme, /npm ci && npm start/)
  t.match(readme, /npm ci && npm test/)
  const ci = read('.ci/run')
  t.match(ci, /^npm ci$/m)
  t.match(ci, /^npm test\b/m)
})

t.test('every document the README links to exists', async (t) => {
  for (const [, link] of read('README.md').matchAll(/\]\(((?:docs|examples)\/[^)#]+)\)/g)) {
    t.ok(statSync(join(root, link), { throwIfNoEntry: false }), `${link} exists`)
  }
})

t.test('the README explains the EBADENGINE warning npm ci prints on an older Node', async (t) => {
  const readme = read('README.md')
  t.match(readme, /npm warn EBADENGINE Unsupported engine/)
  t.match(readme, /npm checks the package's `engines` field against the Node that runs npm itself/)
})
