import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ENV_VARIABLES } from '../src/config.ts'
import { COMMANDS, mainHelp } from '../src/cli/run-cli.ts'
import { SPEC_KEYS } from '../src/core/spec/spec-parse.ts'

const root = resolve(import.meta.dirname, '..')
const read = (file: string) => readFileSync(join(root, file), 'utf8')

type Options = Readonly<Record<string, { readonly short?: string }>>

/** The long flags a text names, each once. */
function flagsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map(([flag]) => flag))]
}

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
    for (const [, a, b] of readFileSync(file, 'utf8').matchAll(
      /\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g,
    ))
      named.add(a ?? b)
  }
  for (const name of named) t.ok(doc.includes(`\`${name}\``), `${name} is in docs/configuration.md`)
})

t.test('every CLI command and every flag its parser reads is documented, in its help and in docs/cli.md', async (t) => {
  const doc = read('docs/cli.md')
  const known = new Set<string>(flagsIn(mainHelp()))
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load()
    t.ok(doc.includes(`judge ${name}`), `judge ${name} is in docs/cli.md`)
    // The table the command hands to its parser: what it reads, not a copy of it.
    const { OPTIONS } = (await import(`../src/cli/commands/${name}.ts`)) as { OPTIONS?: Options }
    t.ok(OPTIONS, `src/cli/commands/${name}.ts exports the OPTIONS it parses`)
    const parsed = Object.keys(OPTIONS ?? {}).map((long) => `--${long}`)
    const helped = flagsIn(command.help)
    for (const flag of parsed) {
      known.add(flag)
      t.ok(helped.includes(flag), `judge ${name} --help describes ${flag}`)
      t.ok(doc.includes(flag), `${flag} of judge ${name} is in docs/cli.md`)
    }
    for (const [long, option] of Object.entries(OPTIONS ?? {})) {
      if (option.short)
        t.match(
          command.help,
          `--${long}, -${option.short}`,
          `judge ${name} --help gives -${option.short} with --${long}`,
        )
    }
    for (const flag of helped)
      t.ok(parsed.includes(flag), `judge ${name} --help names ${flag}, and its parser reads it`)
  }
  for (const flag of flagsIn(doc)) t.ok(known.has(flag), `${flag} in docs/cli.md is a flag the CLI reads`)
})

t.test('every spec key is documented', async (t) => {
  const doc = read('docs/spec-format.md')
  for (const key of SPEC_KEYS) t.ok(doc.includes(`\`${key}\``), `${key} is in docs/spec-format.md`)
})

t.test('every file of src/core/stats/ has its row in the table of docs/architecture.md', async (t) => {
  const doc = read('docs/architecture.md')
  const from = doc.slice(doc.indexOf('| file | formula | reference |'))
  const table = from.slice(0, from.indexOf('\n\n'))
  const files = readdirSync(join(root, 'src/core/stats')).filter((f) => f.endsWith('.ts'))
  t.ok(files.length > 10, 'the statistics have files')
  for (const file of files)
    t.match(
      table,
      new RegExp(`^\\|[^\\n]*\`${file.replace('.', '\\.')}\``, 'm'),
      `${file} is in the table of core/stats/`,
    )
})

t.test("the README's two commands are what CI runs", async (t) => {
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

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated heading gets `-1`, `-2`, …). */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    anchors.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return anchors
}

t.test('every link between the documents reaches a file, and a heading when it names one', async (t) => {
  const documents = ['README.md', 'bench/README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)]
  for (const file of documents.filter((f) => f.endsWith('.md'))) {
    const text = read(file).replace(/```[\s\S]*?```/g, '')
    for (const [link, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue
      const path = target === '' ? file : join(file, '..', target)
      const found = statSync(join(root, path), { throwIfNoEntry: false })
      if (!found) t.fail(`${file}: ${link} names a file that does not exist`)
      else if (anchor && path.endsWith('.md') && !headingAnchors(read(path)).has(anchor))
        t.fail(`${file}: ${link} names no heading of ${path}`)
    }
  }
  t.same(
    [...headingAnchors('# A `b`, c (d)\n```\n# not a heading\n```\n## A b c d\n### Über 2%')],
    ['a-b-c-d', 'a-b-c-d-1', 'über-2'],
    'anchors as GitHub makes them',
  )
})

t.test('the README explains the EBADENGINE warning npm ci prints on an older Node', async (t) => {
  const readme = read('README.md')
  t.match(readme, /npm warn EBADENGINE Unsupported engine/)
  t.match(readme, /npm checks the package's `engines` field against the Node that runs npm itself/)
})
