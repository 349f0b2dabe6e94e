import t from 'tap'
import { CHANGE_WORDS, questionChanges, type AskingSide } from '../../../src/core/compare/changes.ts'
import type { Spec } from '../../../src/core/types.ts'
import { LANG_YAML, spec, SPAM_YAML, TONE_YAML } from '../../helpers/specs.ts'

const side = (specs: Spec[], model = 'jev'): AskingSide => ({ specs, modelOf: (s) => s.model ?? model })
const alike = (live: Spec, candidate: Spec, question: string, models: [string, string] = ['jev', 'jev']) =>
  questionChanges(side([live], models[0]), side([candidate], models[1]), { live, candidate }, question)

t.test('a question asked with the same wording, labels, model and state is unchanged', async (t) => {
  const live = spec()
  const candidate = spec(SPAM_YAML.replace('name: spam', 'name: spam-v2').replace('route: block', 'route: hold'))
  t.same(alike(live, candidate, 'is_spam'), [], 'another name and other routes ask the question alike')
  t.same(alike(live, candidate, 'is_spam', ['jev', 'jev-2']), ['model'], 'the default model of one side')
  t.same(alike(live, spec(SPAM_YAML + 'model: jev-2\n'), 'topic'), ['model'], 'the model a spec names')
  t.same(CHANGE_WORDS.question, 'wording or labels')
})

t.test('the wording, a label or its description, and the state each change it', async (t) => {
  const live = spec()
  t.same(alike(live, spec(SPAM_YAML.replace('unsolicited advertising', 'unwanted adverts')), 'is_spam'), ['question'])
  t.same(alike(live, spec(SPAM_YAML.replace('Offers, prizes', 'Offers')), 'topic'), ['question'])
  t.same(alike(live, spec(SPAM_YAML.replace('[message]', '[message, sender]')), 'topic'), ['state'], 'a column added')
  t.same(alike(live, spec(SPAM_YAML.replace('[message]', '[body]')), 'topic'), ['state'], 'a column renamed')
  t.same(
    alike(live, spec(SPAM_YAML.replace('[message]', '[body]') + 'model: jev-2\n'), 'is_spam'),
    ['model', 'state'],
    'every change named',
  )
})

t.test('a column holding another judgment label is unchanged only while that question is asked alike', async (t) => {
  const lang = (yaml: string) => spec(yaml, '/specs/lang.judge.yaml')
  const tone = spec(TONE_YAML, '/specs/tone.judge.yaml')
  const changes = (candidateLang: Spec) =>
    questionChanges(
      side([lang(LANG_YAML), tone]),
      side([candidateLang, tone]),
      { live: tone, candidate: tone },
      'polite',
    )
  t.same(changes(lang(LANG_YAML)), [], 'the same label read the same way')
  t.same(changes(lang(LANG_YAML.replace('Language?', 'Which language?'))), ['state'], 'its label asked otherwise')
  t.same(changes(lang(LANG_YAML + 'model: jev-2\n')), ['state'], 'its label asked of another model')
})
