import t from 'tap'
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { readLabelKey, writeLabelKey } from '../../../src/cli/commands/init-label.ts'

t.test(
  'a label column gives the labels and one key line per state; two labels for one state leave it out',
  async (t) => {
    const dir = t.testdir({ 'm.csv': 'message,class\nhi,a\nhi,a\nyo,b\nno,a\nno,b\n' })
    const read = { file: join(dir, 'm.csv'), label: 'm.csv', delimiter: ',', columns: null }
    const key = (await readLabelKey(read, 'class', ['message'], true))!
    t.same(key.question.labels, ['a', 'b'])
    t.same(key.lines, [
      ['hi', 'a'],
      ['yo', 'b'],
    ])
    t.equal(key.contradicted, 1)
    await writeLabelKey(join(dir, 'm.key.csv'), ['message'], key)
    t.equal(readFileSync(join(dir, 'm.key.csv'), 'utf8'), 'message,class\nhi,a\nyo,b\n')
    await t.rejects(
      writeLabelKey(join(dir, 'm.key.csv'), ['message'], key),
      { name: 'UsageError', message: /m\.key\.csv already exists; init never overwrites a file/ },
      'never over a file',
    )
    symlinkSync(join(dir, 'nowhere.csv'), join(dir, 'n.key.csv'))
    await t.rejects(
      writeLabelKey(join(dir, 'n.key.csv'), ['message'], key),
      { name: 'UsageError', message: /n\.key\.csv already exists/ },
      'nor through a dangling symlink',
    )
    t.notOk(existsSync(join(dir, 'nowhere.csv')), 'the link leads nowhere still')
    t.same(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no file is left beside it',
    )
  },
)

t.test('a column that cannot give labels is an error when asked for, and nothing when detected', async (t) => {
  const dir = t.testdir({ 'm.csv': 'message,class\nhi,a\nyo,a\n' })
  const read = { file: join(dir, 'm.csv'), label: 'm.csv', delimiter: ',', columns: null }
  await t.rejects(readLabelKey(read, 'class', ['message'], true), {
    name: 'UsageError',
    message: /m\.csv: --label class: the column "class" holds one value only/,
  })
  t.equal(await readLabelKey(read, 'class', ['message'], false), null)
})
