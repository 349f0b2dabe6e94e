import t from 'tap'
import { labelProblem, labelQuestion, questionNameOf } from '../../../src/core/spec/starter-label.ts'

t.test('a column name becomes a question name', async (t) => {
  t.equal(questionNameOf('Is Spam'), 'is_spam')
  t.equal(questionNameOf('label'), 'label')
  t.equal(questionNameOf('日本'), 'label')
})

t.test('two to twenty values without control characters make labels; otherwise the problem is told', async (t) => {
  t.equal(labelProblem('c', ['a', 'b']), null)
  t.match(labelProblem('c', []), /holds no value/)
  t.match(labelProblem('c', ['a']), /one value only \("a"\)/)
  t.match(
    labelProblem(
      'c',
      Array.from({ length: 21 }, (_, i) => `v${i}`),
    ),
    /21 different values/,
  )
  t.match(labelProblem('c', ['a', 'b\u0007']), /holds a control character/)
})

t.test('yes and no make a yes_no question; other values a choice, sorted', async (t) => {
  const text = (v: string) => v
  t.match(labelQuestion('verdict', ['yes', 'no'], text), {
    name: 'verdict',
    labels: ['no', 'yes'],
    yaml: /type: yes_no/,
  })
  const choice = labelQuestion('class', ['spam', 'ham'], text)
  t.same(choice.labels, ['ham', 'spam'])
  t.match(choice.yaml, /labels: .*\n {6}ham:\n {6}spam:\n$/)
})

t.test(
  'values with a natural order make a scale in that order; the others a choice that says it has none',
  async (t) => {
    const text = (v: string) => v
    const scale = labelQuestion('priority', ['high', 'low', 'medium'], text)
    t.match(scale, { name: 'priority', type: 'scale', labels: ['low', 'medium', 'high'] })
    t.match(scale.yaml, /type: scale\n {4}labels: .*ordered low -> high.*\n {6}low:\n {6}medium:\n {6}high:\n$/)
    const choice = labelQuestion('team', ['web', 'phone'], text)
    t.match(choice, { type: 'choice', yaml: /in no order judge knows/ })
    t.equal(labelQuestion('verdict', ['yes', 'no'], text).type, 'yes_no')
  },
)
