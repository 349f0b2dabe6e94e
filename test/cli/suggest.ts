import t from 'tap'
import { closest, distance } from '../../src/cli/suggest.ts'

t.test('the nearest word within two edits, or a word it begins', async (t) => {
  const words = ['init', 'run', 'plan', 'runs', 'drift', 'test', 'replay', 'serve']
  t.equal(closest('runn', words), 'run')
  t.equal(closest('tset', words), 'test')
  t.equal(closest('repl', words), 'replay')
  t.equal(closest('SERVE', words), 'serve')
  t.equal(closest('xyzzy', words), null)
})

t.test('edit distance counts insertions, deletions and substitutions', async (t) => {
  t.equal(distance('', 'abc'), 3)
  t.equal(distance('kitten', 'sitting'), 3)
  t.equal(distance('run', 'run'), 0)
})
