import t from 'tap'
import {
  isKind,
  isVerdict,
  labelsSaved,
  labelUnderCheck,
  VERDICTS,
  VERDICTS_BY_KIND,
  verdictChoices,
  verdictKey,
  verdictText,
} from '../../../src/core/review/verdicts.ts'
import { spec } from '../../helpers/specs.ts'

const topic = spec().questions.find((q) => q.name === 'topic')!

t.test('each verdict saves the labels docs/review.md gives it', async (t) => {
  const subject = { modelLabel: 'promotion', keyLabel: 'service', label: 'personal' }
  t.same(labelsSaved('model_right', subject), ['promotion'])
  t.same(labelsSaved('key_right', subject), ['service'])
  t.same(labelsSaved('both_ok', subject), ['promotion', 'service'])
  t.same(labelsSaved('confirmed', subject), ['service'], "the key's label is the one under check")
  t.same(labelsSaved('labeled', subject), ['personal'])
  t.same(labelsSaved('needs_context', subject), [])
  t.same(labelsSaved('ambiguous', subject), [])
})

t.test("without a key label, confirmed saves the model's label", async (t) => {
  const subject = { modelLabel: 'promotion', keyLabel: null }
  t.equal(labelUnderCheck(subject), 'promotion')
  t.same(labelsSaved('confirmed', subject), ['promotion'])
  t.same(labelsSaved('labeled', subject), [], 'labeled without a label saves nothing')
})

t.test('a disagreement offers its six verdicts, with "it is" for each label neither side gave', async (t) => {
  const choices = verdictChoices('disagreement', topic, { modelLabel: 'promotion', keyLabel: 'service' })
  t.same(choices, [
    { verdict: 'model_right', label: null, text: 'model is right' },
    { verdict: 'key_right', label: null, text: 'answer key is right' },
    { verdict: 'both_ok', label: null, text: 'both acceptable' },
    { verdict: 'labeled', label: 'personal', text: 'it is personal' },
    { verdict: 'needs_context', label: null, text: 'needs more context' },
    { verdict: 'ambiguous', label: null, text: 'ambiguous' },
  ])
})

t.test('spot checks and unsure rows offer confirmed and "it is" for every other label', async (t) => {
  for (const kind of ['spot_check', 'unsure'] as const) {
    const choices = verdictChoices(kind, topic, { modelLabel: 'promotion', keyLabel: null })
    t.same(
      choices.map((c) => [c.verdict, c.label]),
      [
        ['confirmed', null],
        ['labeled', 'personal'],
        ['labeled', 'service'],
        ['needs_context', null],
        ['ambiguous', null],
      ],
    )
  }
})

t.test('every verdict fits at least one kind, and the kinds and verdicts are recognised', async (t) => {
  for (const verdict of VERDICTS)
    t.ok(
      Object.values(VERDICTS_BY_KIND).some((list) => list.includes(verdict)),
      verdict,
    )
  t.ok(isKind('spot_check'))
  t.notOk(isKind('spot-check'))
  t.ok(isVerdict('both_ok'))
  t.notOk(isVerdict('toString'))
  t.not(verdictKey('a', 'b', 'c'), verdictKey('a', 'bc', ''), 'parts cannot run into each other')
})

t.test('a verdict given reads as its button, with the label for labeled', async (t) => {
  t.equal(verdictText({ verdict: 'key_right', labels: ['no'] }), 'answer key is right')
  t.equal(verdictText({ verdict: 'labeled', labels: ['promotion'] }), 'it is promotion')
  t.equal(verdictText({ verdict: 'ambiguous', labels: [] }), 'ambiguous')
})
