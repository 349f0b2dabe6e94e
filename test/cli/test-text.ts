import t from 'tap'
import type { QuestionScore } from '../../src/core/review/accuracy.ts'
import { belowBar, confusionLines, questionLines, scoresJson, testReport } from '../../src/cli/test-text.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

function score(correct: number, counted: number, more: Partial<QuestionScore> = {}): QuestionScore {
  return {
    counted, correct, accuracy: counted ? correct / counted : null, interval: counted ? [0.5, 0.9] : null,
    reviewed: 3, needs_context: 1, ambiguous: 2, pending: 4, confusion: { labels: ['yes', 'no'], counts: [[correct, 0], [counted - correct, 0]] }, ...more,
  }
}

t.test('--json keeps exactly the eight score fields, in order, per judgment and question', async (t) => {
  const json = scoresJson(new Map([['spam', { is_spam: score(9, 10) }]]))
  t.same(json, { spam: { is_spam: { counted: 10, correct: 9, accuracy: 0.9, interval: [0.5, 0.9], reviewed: 3, needs_context: 1, ambiguous: 2, pending: 4 } } })
  t.same(Object.keys(json.spam.is_spam), ['counted', 'correct', 'accuracy', 'interval', 'reviewed', 'needs_context', 'ambiguous', 'pending'])
})

t.test('a question is below the bar only when its accuracy is known and lower than min_accuracy', async (t) => {
  const barred = spec(SPAM_YAML + 'min_accuracy: 0.9\n')
  t.same(belowBar(barred, { a: score(9, 10), b: score(8, 10), c: score(0, 0) }), ['spam.b: accuracy 80.0% is below min_accuracy 90.0%'])
  t.same(belowBar(spec(), { b: score(0, 10) }), [], 'no min_accuracy, no bar')
})

t.test('a question without a bar shows its accuracy without a verdict on it', async (t) => {
  t.same(questionLines('is_spam', score(9, 10), null).slice(0, 2), [
    '  is_spam: accuracy 90.0% (9 of 10), 95% interval 50.0% to 90.0%',
    '    reviewed 3, context gap 1, ambiguous 2, pending 4',
  ])
  t.match(questionLines('is_spam', score(8, 10), 0.9)[0], /; below min_accuracy 90\.0%$/)
})

t.test('the confusion table leaves out labels that never occur', async (t) => {
  const lines = confusionLines({ labels: ['low', 'medium', 'high'], counts: [[2, 0, 1], [0, 0, 0], [0, 0, 3]] })
  t.same(lines, ['    true \\ model  low  high', '    low           2    1', '    high          0    3'])
})

t.test('the report skips the run line of a judgment that has no run', async (t) => {
  t.equal(testReport([], [spec()], new Map([['spam', { is_spam: score(0, 0) }]])), '  is_spam: no rows with a known label and an answer\n    reviewed 3, context gap 1, ambiguous 2, pending 4\n')
})
