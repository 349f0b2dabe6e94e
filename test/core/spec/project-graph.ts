import t from 'tap'
import { resolveProject } from '../../../src/core/spec/project-graph.ts'
import type { LoadedSpec } from '../../../src/core/spec/project-graph.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { SpecError } from '../../../src/errors.ts'

const dir = '/projects/sms'

/** A spec file of the folder whose state is `state` and which asks one yes_no question `q`. */
function loaded(fileName: string, state: string[], extra = ''): LoadedSpec {
  const file = `${dir}/${fileName}`
  const text = `state: [${state.join(', ')}]\nquestions: {q: {ask: x, type: yes_no}}\n${extra}`
  try {
    return { file, spec: parseSpec(text, file) }
  } catch (error) {
    return { file, error: error as SpecError }
  }
}

const names = (specs: readonly { name: string }[]) => specs.map((s) => s.name)

t.test('orders a folder by file name when nothing is chained', async (t) => {
  const result = resolveProject([loaded('a.judge.yaml', ['m']), loaded('b.judge.yaml', ['m'])], null)
  t.same(names(result.specs), ['a', 'b'])
  t.same(names(result.selected), ['a', 'b'])
})

t.test('puts dependencies before their dependents, by file name otherwise', async (t) => {
  const result = resolveProject(
    [
      loaded('a.judge.yaml', ['m', 'c.q']),
      loaded('b.judge.yaml', ['m']),
      loaded('c.judge.yaml', ['m', 'd.q']),
      loaded('d.judge.yaml', ['m']),
    ],
    null,
  )
  t.same(names(result.specs), ['b', 'd', 'c', 'a'])
  t.same(names(result.selected), ['b', 'd', 'c', 'a'])
})

t.test('selects one file but keeps every judgment of its folder', async (t) => {
  const files = [loaded('a.judge.yaml', ['m', 'b.q']), loaded('b.judge.yaml', ['m']), loaded('c.judge.yaml', ['m'])]
  const result = resolveProject(files, `${dir}/a.judge.yaml`)
  t.same(names(result.selected), ['a'])
  t.same(names(result.specs), ['b', 'a', 'c'])
})

t.test('rejects a reference to an unknown judgment, listing the known ones', async (t) => {
  t.throws(() => resolveProject([loaded('a.judge.yaml', ['m', 'spam.is_spam'])], null), {
    name: 'SpecError',
    file: `${dir}/a.judge.yaml`,
    keyPath: 'state[1]',
    message:
      `${dir}/a.judge.yaml: state[1]: "spam.is_spam" names the judgment "spam", which is not in this folder ` +
      '(the judgments are a; a state entry judgment.question is the label another judgment gives)',
  })
})

t.test('rejects a reference to a question the other judgment does not ask', async (t) => {
  t.throws(() => resolveProject([loaded('a.judge.yaml', ['b.topic']), loaded('b.judge.yaml', ['m'])], null), {
    keyPath: 'state[0]',
    message: `${dir}/a.judge.yaml: state[0]: the judgment "b" has no question "topic"; its questions are q`,
  })
})

t.test('rejects a cycle, naming it', async (t) => {
  const files = [loaded('a.judge.yaml', ['m', 'b.q']), loaded('b.judge.yaml', ['c.q']), loaded('c.judge.yaml', ['a.q'])]
  t.throws(() => resolveProject(files, null), {
    file: `${dir}/c.judge.yaml`,
    keyPath: 'state[0]',
    message: `${dir}/c.judge.yaml: state[0]: "a.q" makes a cycle: a -> b -> c -> a`,
  })
  t.throws(() => resolveProject([loaded('a.judge.yaml', ['m', 'a.q'])], null), {
    message: /state\[1\]: "a\.q" makes a cycle: a -> a$/,
  })
})

t.test('rejects two files that give the same judgment name', async (t) => {
  const files = [loaded('a.judge.yaml', ['m'], 'name: spam\n'), loaded('b.judge.yaml', ['m'], 'name: spam\n')]
  t.throws(() => resolveProject(files, null), {
    file: `${dir}/a.judge.yaml`,
    keyPath: 'name',
    message: `${dir}/a.judge.yaml: name: the judgment name "spam" is also used by b.judge.yaml: give one of them a name of its own, such as name: b in b.judge.yaml (a name keeps its runs and answers apart), or move the copy to a folder of its own`,
  })
  t.throws(() => resolveProject(files, `${dir}/b.judge.yaml`), {
    message: `${dir}/b.judge.yaml: name: the judgment name "spam" is also used by a.judge.yaml: give one of them a name of its own, such as name: a in a.judge.yaml (a name keeps its runs and answers apart), or move the copy to a folder of its own`,
  })
})

t.test('rejects a folder with any spec that fails to load', async (t) => {
  const broken = loaded('b.judge.yaml', [])
  t.throws(() => resolveProject([loaded('a.judge.yaml', ['m']), broken], null), {
    name: 'SpecError',
    file: `${dir}/b.judge.yaml`,
    keyPath: 'state',
  })
})

t.test('judges a selected file despite broken siblings it does not depend on', async (t) => {
  const files = [
    loaded('a.judge.yaml', ['m', 'b.q']),
    loaded('b.judge.yaml', ['m']),
    loaded('c.judge.yaml', []),
    loaded('d.judge.yaml', ['e.q']),
    loaded('e.judge.yaml', ['d.q']),
    loaded('f.judge.yaml', ['m'], 'name: b\n'),
  ]
  t.throws(() => resolveProject(files, `${dir}/a.judge.yaml`), {
    keyPath: 'name',
    message: /also used by f\.judge\.yaml/,
  })
  const result = resolveProject(files.slice(0, 5), `${dir}/a.judge.yaml`)
  t.same(names(result.selected), ['a'])
  t.same(names(result.specs), ['b', 'a'])
})

t.test('reports the error of a selected file, and of a broken file it depends on', async (t) => {
  const files = [loaded('a.judge.yaml', ['m', 'b.q']), loaded('b.judge.yaml', [])]
  t.throws(() => resolveProject(files, `${dir}/b.judge.yaml`), {
    name: 'SpecError',
    file: `${dir}/b.judge.yaml`,
    keyPath: 'state',
  })
  t.throws(() => resolveProject(files, `${dir}/a.judge.yaml`), {
    name: 'SpecError',
    file: `${dir}/b.judge.yaml`,
    keyPath: 'state',
  })
})

t.test('lets errors other than spec errors through', async (t) => {
  const good = loaded('a.judge.yaml', ['m'])
  const other = loaded('b.judge.yaml', ['m'])
  // A spec whose state cannot be read stands for a fault in the code, not in a spec file.
  const spec = {
    ...('spec' in other && other.spec),
    get state(): never {
      throw new TypeError('boom')
    },
  }
  const faulty = { file: other.file, spec }
  t.throws(() => resolveProject([good, faulty as LoadedSpec], good.file), { name: 'TypeError', message: 'boom' })
})
