import t from 'tap'
import { SpecError } from '../../../src/errors.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { MAX_ACCURACY_TARGET } from '../../../src/core/spec/spec-review.ts'

const BASE = 'state: [message]\nquestions:\n  is_spam: {ask: Is this spam?, type: yes_no}\n'
const parse = (extra: string) => parseSpec(BASE + extra, '/p/spam.judge.yaml')

t.test('no accuracy target and Neyman allocation unless the spec says otherwise', async (t) => {
  t.match(parse(''), { accuracyTarget: null, allocation: 'neyman' })
})

t.test('accuracy_target and allocation are read', async (t) => {
  t.match(parse('accuracy_target: 0.03\nallocation: fixed\n'), { accuracyTarget: 0.03, allocation: 'fixed' })
  t.match(parse(`accuracy_target: ${MAX_ACCURACY_TARGET}\n`), { accuracyTarget: MAX_ACCURACY_TARGET })
})

t.test('a bad accuracy_target or allocation is an error naming the key and what it takes', async (t) => {
  for (const bad of ['0', '-0.1', '0.6', 'three', '[0.03]']) {
    t.throws(
      () => parse(`accuracy_target: ${bad}\n`),
      { name: SpecError.name, message: /accuracy_target.*half-width.*above 0 and at most 0\.5/ },
      bad,
    )
  }
  t.throws(() => parse('allocation: random\n'), { message: /allocation.*neyman.*fixed.*"random"/ })
})
