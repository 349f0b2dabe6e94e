import t from 'tap'
import { MEANINGS, term } from '../../../src/http/pages/accuracy-terms.ts'

t.test('a method name expands to its meaning, both escaped, with an id when a heading links to it', async (t) => {
  t.equal(
    term('a <b>', "it's <i>").text,
    '<details class="term"><summary>a &lt;b&gt;</summary><p class="muted">it&#39;s &lt;i&gt;</p></details>',
  )
  t.match(term('reviewed past a gap', MEANINGS.gap, 'q-gap').text, /^<details class="term" id="q-gap"><summary>/)
})

t.test('each meaning is one plain sentence', async (t) => {
  for (const [name, meaning] of Object.entries(MEANINGS)) {
    t.match(meaning, /^[A-Z].*\.$/, `${name} reads as a sentence`)
    t.notMatch(meaning, /\.\s+[A-Z]/, `${name} is one sentence`)
  }
})
