import t from 'tap'
import { verdictChoices } from '../../../src/core/review/verdicts.ts'
import { accessKeys, UNDO_KEY, VERDICT_KEYS } from '../../../src/http/pages/review-keys.ts'
import { spec } from '../../helpers/specs.ts'

const [isSpam, topic, urgency] = spec().questions

t.test('each verdict has the same key on every card', async (t) => {
  t.same(accessKeys(verdictChoices('disagreement', isSpam, { modelLabel: 'yes', keyLabel: 'no' })), [
    'm',
    'k',
    'b',
    'n',
    'a',
  ])
  t.same(VERDICT_KEYS, {
    model_right: 'm',
    key_right: 'k',
    both_ok: 'b',
    confirmed: 'r',
    needs_context: 'n',
    ambiguous: 'a',
  })
})

t.test('an "it is <label>" button takes the first letter of its label that is free, else a digit', async (t) => {
  t.same(
    accessKeys(verdictChoices('spot_check', topic, { modelLabel: 'service', keyLabel: null })),
    ['r', 'p', 'o', 'n', 'a'],
    'personal p, promotion o (p and r taken)',
  )
  t.same(
    accessKeys(verdictChoices('unsure', isSpam, { modelLabel: 'yes', keyLabel: null })),
    ['r', 'o', 'n', 'a'],
    'no: n is needs more context',
  )
  t.same(accessKeys(verdictChoices('unsure', urgency, { modelLabel: 'low', keyLabel: null })), [
    'r',
    'm',
    'h',
    'n',
    'a',
  ])
  const odd = { ...topic, labels: ['def', 'fed', 'ed', 'u', 'service'] }
  t.same(
    accessKeys(verdictChoices('unsure', odd, { modelLabel: 'service', keyLabel: null })),
    ['r', '1', '2', '3', '4', 'n', 'a'],
    'd, e, f and the undo key are never taken',
  )
  t.equal(UNDO_KEY, 'u')
  const many = {
    ...topic,
    labels: ['s', ...Array.from({ length: 12 }, () => 'x')].map((l, i) => (i === 0 ? l : `${l}${i}`)),
  }
  const keys = accessKeys(verdictChoices('unsure', many, { modelLabel: 's', keyLabel: null }))
  t.equal(new Set(keys.filter((k) => k !== null)).size, keys.filter((k) => k !== null).length, 'no key is given twice')
  t.ok(keys.includes(null), 'a button without a free key has none')
})
