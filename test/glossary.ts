import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

// The glossary of docs/architecture.md, checked on the source text: a judgment is not called a
// node in code, and nothing but the wire's `audit` parameter is called audit (spot checks, sample
// designs and the forget log have their own names). The wire keeps its names, so what is allowed
// is where code reads or writes one: a key of a link's query or of a JSON body beside `path`, a
// field of a JSON reply, the CLI's `--node` flag. Identifiers only: comments and the text of
// string literals are blanked first.

const ROOT = resolve(import.meta.dirname, '..')

/**
 * A source text with its comments and the text of its string literals (a template's text, not its
 * `${…}` code) blanked, each character replaced by a space, so that lines and columns stay.
 */
function codeOf(text: string): string {
  const out = [...text]
  // A script's first line, `#!/usr/bin/env node`, is no code.
  if (text.startsWith('#!')) for (let k = 0; k < text.indexOf('\n'); k++) out[k] = ' '
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' '
  }
  // Open template literals, each with the depth of `${` braces of its innermost substitution.
  const templates: number[] = []
  let i = text.startsWith('#!') ? text.indexOf('\n') : 0
  let last = '' // the last character of code that is not white space, to tell a regex from a division
  while (i < text.length) {
    const c = text[i]
    const inSubstitution = templates.length > 0 && templates[templates.length - 1] >= 0
    if (templates.length > 0 && !inSubstitution) {
      // In a template's text: up to its end or a substitution.
      const start = i
      while (i < text.length && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{'))
        i += text[i] === '\\' ? 2 : 1
      blank(start, i)
      if (text[i] === '`') templates.pop()
      else templates[templates.length - 1] = 0
      i += text[i] === '`' ? 1 : 2
      last = '`'
      continue
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i)
      blank(i, end === -1 ? text.length : end)
      i = end === -1 ? text.length : end
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2) + 2
      blank(i, end)
      i = end
    } else if (c === "'" || c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1
      blank(i + 1, j)
      i = j + 1
      last = c
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last))) {
      // A regex literal: skipped whole, a class `[…]` may hold a slash.
      let j = i + 1
      let inClass = false
      while (j < text.length && (inClass || text[j] !== '/') && text[j] !== '\n') {
        if (text[j] === '[') inClass = true
        if (text[j] === ']') inClass = false
        j += text[j] === '\\' ? 2 : 1
      }
      blank(i + 1, j)
      i = j + 1
      last = '/'
    } else if (c === '`') {
      templates.push(-1)
      i += 1
    } else {
      if (inSubstitution && c === '{') templates[templates.length - 1] += 1
      if (inSubstitution && c === '}') {
        if (templates[templates.length - 1] === 0) {
          templates[templates.length - 1] = -1
          i += 1
          continue
        }
        templates[templates.length - 1] -= 1
      }
      if (!/\s/.test(c)) last = c
      i += 1
    }
  }
  return out.join('')
}

/** A name the glossary rules out, where it stands in a file. */
interface Finding {
  readonly file: string
  readonly line: number
  readonly name: string
}

// `node`/`nodes` standing alone, and any identifier containing audit.
const RULED_OUT = /(?<![\w$])(?:nodes?|[\w$]*(?:audit|Audit|AUDIT)[\w$]*)(?![\w$])/g

/**
 * The wire names code may write, each with why. `node` and `audit` as keys of an object or type
 * that has a `path` key before them are a link's query, a form's or a JSON body's fields or a JSON
 * reply's (GET /v1/review's `audit`, GET /runs's `node`): the interface's names.
 */
const ALLOWED: readonly { readonly file: RegExp; readonly code: RegExp; readonly why: string }[] = [
  { file: /^src\/cli\//, code: /\bvalues\.node\b/, why: "the CLI's --node flag as parsed" },
  { file: /^src\/cli\/args\.ts$/, code: /^\s*node: \{ type:/, why: "the CLI's --node flag" },
  { file: /^src\/cli\//, code: /\bversions\.node\b/, why: 'the version of Node.js, not a judgment' },
  {
    file: /^src\/judge\.ts$/,
    code: /\breadonly node\?:|\boptions\.node\b/,
    why: "the library's option, as the wire's",
  },
  { file: /./, code: /\brun\.node\b/, why: "a run record's `node`, a field of GET /v1/runs and a column" },
  { file: /^src\/core\/types\.ts$/, code: /^\s*readonly node: string$/, why: 'the same field, declared' },
  { file: /^src\/app\/record-runs\.ts$/, code: /^\s*node: /, why: 'the same field, written' },
  { file: /^src\/http\/pages\//, code: /\bdata\.(?:node|audit)\b/, why: 'a JSON twin field, shown by its page' },
]

/** Whether the key at `index` of `code` is in an object or type whose keys before it include `path`. */
function besidePath(code: string, index: number): boolean {
  if (!/^\s*\??:/.test(code.slice(index).replace(/^[\w$]+/, ''))) return false
  let depth = 0
  for (let k = index - 1; k >= 0; k--) {
    if (code[k] === '}' || code[k] === ')' || code[k] === ']') depth += 1
    else if (code[k] === '(' || code[k] === '[') depth -= 1
    else if (code[k] === '{') {
      if (depth === 0) return /(?<![\w$.])path\b\s*[?:,]/.test(code.slice(k + 1, index))
      depth -= 1
    }
    if (depth < 0) return false
  }
  return false
}

/** Where a source text names a judgment `node` or anything but the wire parameter `audit`. */
function findingsOf(file: string, text: string): Finding[] {
  const code = codeOf(text)
  const lines = code.split('\n')
  const starts = lines.map((_, n) => lines.slice(0, n).reduce((sum, l) => sum + l.length + 1, 0))
  const findings: Finding[] = []
  for (const match of code.matchAll(RULED_OUT)) {
    const line = starts.findLastIndex((s) => s <= match.index)
    const name = match[0]
    if ((name === 'node' || name === 'audit') && besidePath(code, match.index)) continue
    const allowed = ALLOWED.some((a) => a.file.test(file) && a.code.test(lines[line]) && lines[line].includes(name))
    if (!allowed) findings.push({ file, line: line + 1, name })
  }
  return findings
}

const SOURCES = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/${f.split('\\').join('/')}`)
  .sort()

t.test('no source names a judgment node, or anything but the wire parameter audit', async (t) => {
  const findings = SOURCES.flatMap((f) => findingsOf(f, readFileSync(join(ROOT, f), 'utf8')))
  t.same(
    findings.map((f) => `${f.file}:${f.line}: ${f.name}`),
    [],
    'a judgment is a judgment; spot checks, sample designs and the forget log go by those names',
  )
})

t.test('comments, string literals and template text are blanked, a substitution and lines kept', async (t) => {
  const text = "const a = 'node' // node\n/* audit */ const b = `x ${node} ${'audit'} ${{ k: 1 }.k} y`"
  const code = codeOf(text)
  t.equal(code.length, text.length)
  t.equal(code.split('\n').length, 2)
  t.notMatch(code, /audit/)
  t.match(code, /\$\{node\}/, 'the code of a substitution stays')
  t.match(code, /\{ k: 1 \}\.k/, 'braces inside a substitution do not end it')
  t.equal(codeOf("const r = /'[/]/g, s = 'node'").includes('node'), false, "a regex's quote opens no string")
  t.equal(codeOf('#!/usr/bin/env node\nconst x = 1'), '                   \nconst x = 1', 'nor is a script line')
})

t.test('a judgment called node and every audit but the wire parameter are found, with their lines', async (t) => {
  const found = (text: string, file = 'src/app/x.ts') => findingsOf(file, text).map((f) => `${f.line} ${f.name}`)
  t.same(found('export function f(node: string) {\n  return node\n}'), ['1 node', '2 node'])
  t.same(found('const nodes = [a]'), ['1 nodes'])
  t.same(found('interface Q { readonly audit: number }\nconst MAX_AUDIT = 1\ntype ForgetAudit = {}'), [
    '1 audit',
    '2 MAX_AUDIT',
    '3 ForgetAudit',
  ])
  t.same(found("import { x } from 'node:path'\nconst y = param(query, 'node') ?? param(query, 'audit')"), [])
  t.same(found('const n = NodeNeededError.name + nodeVersion'), [], 'other names are left alone')
  t.same(found("href('/review', { path: p, node: j, audit: 3 }, token)"), [], "a link's query")
  t.same(found('return {\n  path: t.path,\n  node: t.judgmentParam ?? undefined,\n  audit: t.spotChecks,\n}'), [])
  t.same(found('interface RunsData {\n  readonly path: string\n  readonly node: string | null\n}'), [])
  t.same(found('const q = { project, node: j }'), ['1 node'], 'no path: not the wire')
  t.same(found('const q = { path, x: f({ node: j }) }'), ['1 node'], 'a path outside the object does not count')
  t.same(found('const v = values.node', 'src/cli/commands/x.ts'), [])
  t.same(found('const v = values.node'), ['1 node'], 'the flag is read in the CLI alone')
  t.same(found('const s = `${data.audit} spot checks`', 'src/http/pages/x.ts'), [])
})
