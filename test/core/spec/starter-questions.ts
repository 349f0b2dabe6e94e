import t from 'tap'
import { placeholderQuestions } from '../../../src/core/spec/starter-questions.ts'

t.test('one question of each type, routed by the yes/no one', async (t) => {
  const p = placeholderQuestions(['text'], null)
  t.same(p.names, ['relevant', 'topic', 'priority'])
  t.match(p.yaml, /^ {2}relevant:\n[^]* {2}topic:\n[^]* {2}priority:\n/)
  t.match(p.act, /^# Routing[^]*\nact:\n {2}relevant:\n/)
})

t.test('each is named apart from the columns, case aside, and from the label question', async (t) => {
  t.same(placeholderQuestions(['Relevant', 'is_relevant', 'topic'], null).names, [
    'relevance',
    'main_topic',
    'priority',
  ])
  t.same(
    placeholderQuestions(['relevant', 'is_relevant', 'relevance', 'relevant_2'], null).names,
    ['relevant_3', 'topic', 'priority'],
    'numbered once every name is taken',
  )
  const labelled = placeholderQuestions(['text', 'relevant'], 'relevant')
  t.same(labelled.names, ['topic', 'priority'], 'the label question takes its type’s place')
  t.equal(labelled.act, '', 'no yes/no question to route')
  t.same(placeholderQuestions(['priority', 'urgency'], 'urgency').names, ['relevant', 'topic', 'importance'])
})
