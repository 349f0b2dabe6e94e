import t from 'tap'
import { readYaml } from '../../../src/core/spec/spec-yaml.ts'

const file = '/specs/spam.judge.yaml'

t.test('reads mappings as Maps in document order, with lists and scalars as they are', async (t) => {
  const value = readYaml('b: 1\na: [x, 2, true, null]\nc: {d: e}\n', file)
  t.same(
    value,
    new Map<string, unknown>([
      ['b', 1],
      ['a', ['x', 2, true, null]],
      ['c', new Map([['d', 'e']])],
    ]),
  )
  t.same([...(value as Map<string, unknown>).keys()], ['b', 'a', 'c'])
})

t.test('reads yes and no as text, as YAML 1.2 does', async (t) => {
  t.same(
    readYaml('yes: a\nno: b\nlabel: yes\n', file),
    new Map([
      ['yes', 'a'],
      ['no', 'b'],
      ['label', 'yes'],
    ]),
  )
})

t.test('keeps __proto__ as an ordinary key', async (t) => {
  const value = readYaml('__proto__: {polluted: true}\n', file) as Map<string, unknown>
  t.ok(value.has('__proto__'))
  t.equal(({} as Record<string, unknown>).polluted, undefined)
})

t.test('reads an empty file as null and tolerates a byte order mark', async (t) => {
  t.equal(readYaml('', file), null)
  t.same(readYaml('\ufeffa: 1\n', file), new Map([['a', 1]]))
})

t.test('reports a syntax error with its line and column', async (t) => {
  t.throws(() => readYaml('name: spam\nstate: [message\n', file), {
    name: 'SpecError',
    file,
    keyPath: '',
    message: /^\/specs\/spam\.judge\.yaml: invalid YAML at line 3, column 1: /,
  })
  t.throws(() => readYaml('questions:\n\tis_spam: {}\n', file), {
    message: `${file}: invalid YAML at line 2, column 1: Tabs are not allowed as indentation`,
  })
})

t.test('rejects a key given twice, at the second one', async (t) => {
  t.throws(() => readYaml('name: a\nstate: [x]\nname: b\n', file), {
    message: `${file}: invalid YAML at line 3, column 1: Map keys must be unique`,
  })
})

t.test('rejects several documents in one file', async (t) => {
  t.throws(() => readYaml('a: 1\n---\nb: 2\n', file), {
    message: /invalid YAML at line 2, column 1: Source contains multiple documents/,
  })
})

t.test('rejects unknown tags instead of reading them as text', async (t) => {
  t.throws(() => readYaml('ask: !include other.txt\n', file), {
    message: /invalid YAML at line 1, column 6: Unresolved tag: !include/,
  })
})

t.test('suggests quotes when a comparison was left unquoted', async (t) => {
  const quote = '; write comparisons in quotes, as in p: ">= 0.9"'
  const ending = (text: string) => ({ message: new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
  t.throws(() => readYaml('when: {p: >= 0.9}\n', file), ending(`block scalar indicator >${quote}`))
  t.throws(() => readYaml('when:\n  p: >= 0.9\n', file), ending(`extra characters: >=${quote}`))
  t.throws(() => readYaml('when:\n  p: != 0.5\n', file), ending(`Unresolved tag: !=${quote}`))
  t.throws(() => readYaml('when:\n  p: !foo 0.5\n', file), ending('Unresolved tag: !foo'))
})

t.test('rejects aliases that expand beyond a safe size', async (t) => {
  const nine = (ref: string) => `[${Array(9).fill(ref).join(', ')}]`
  const bomb = `a: &a ${nine('x')}\nb: &b ${nine('*a')}\nc: &c ${nine('*b')}\nd: ${nine('*c')}\n`
  t.throws(() => readYaml(bomb, file), {
    name: 'SpecError',
    message: /^\/specs\/spam\.judge\.yaml: invalid YAML: Excessive alias count/,
  })
})

t.test('keeps a merge key as an ordinary key, so that a spec cannot hide keys behind one', async (t) => {
  t.same(readYaml('<<: {a: 1}\n', file), new Map([['<<', new Map([['a', 1]])]]))
})
