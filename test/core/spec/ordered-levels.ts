import t from 'tap'
import { orderedLevels } from '../../../src/core/spec/ordered-levels.ts'

t.test('known levels come in their order, in any case and spelling of spaces; a subset too', async (t) => {
  t.same(orderedLevels(['high', 'low', 'medium']), ['low', 'medium', 'high'])
  t.same(orderedLevels(['High', 'LOW']), ['LOW', 'High'])
  t.same(orderedLevels(['always', 'never', 'sometimes']), ['never', 'sometimes', 'always'])
  t.same(orderedLevels(['XL', 'S', 'M', 'L']), ['S', 'M', 'L', 'XL'])
  t.same(orderedLevels(['xxl', 'xs']), ['xs', 'xxl'])
  t.same(orderedLevels(['excellent', 'poor', 'good', 'fair']), ['poor', 'fair', 'good', 'excellent'])
  t.same(orderedLevels(['Agree', 'Strongly_Agree', 'strongly-disagree', 'disagree']), [
    'strongly-disagree',
    'disagree',
    'Agree',
    'Strongly_Agree',
  ])
  t.same(orderedLevels(['severe', 'none', 'mild', 'moderate']), ['none', 'mild', 'moderate', 'severe'])
})

t.test('numbers come in numeric order; a small range of integers is filled in', async (t) => {
  t.same(orderedLevels(['5', '1', '2', '4']), ['1', '2', '3', '4', '5'])
  t.same(orderedLevels(['-1', '8']), ['-1', '0', '1', '2', '3', '4', '5', '6', '7', '8'])
  t.same(orderedLevels(['10', '-1']), ['-1', '10'], 'a range past a scale of levels: the values only')
  t.same(orderedLevels(['0.5', '0.25', '1']), ['0.25', '0.5', '1'])
  t.same(orderedLevels(['03', '1']), ['1', '03'], 'a padded number is ordered, not filled')
  t.same(orderedLevels(['0', '100', '50']), ['0', '50', '100'], 'past a scale of levels: the values only')
  t.equal(orderedLevels(['1', '1.0']), null, 'two spellings of one number')
})

t.test('values without a known order, one value, two spellings of a level, or too many levels: none', async (t) => {
  t.equal(orderedLevels(['billing', 'shipping']), null)
  t.equal(orderedLevels(['low', 'billing']), null)
  t.equal(orderedLevels(['low']), null)
  t.equal(orderedLevels(['low', 'Low', 'high']), null)
  t.equal(orderedLevels(Array.from({ length: 11 }, (_, i) => String(i))), null)
})
