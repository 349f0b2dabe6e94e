import t from 'tap'
import { fitSection } from '../../../src/http/pages/fit-section.ts'
import type { QuestionFit } from '../../../src/core/fit/fit.ts'

const unfit: QuestionFit = {
  answers: 40,
  known: 38,
  median: 0.12,
  p10: 0.04,
  min_fit: 0.5,
  fits: false,
  lowest: [
    { state_hash: '0123456789abcdef', option_mass: 0.02, state: { message: '<b>free</b> prize' } },
    { state_hash: '1123456789abcdef', option_mass: 0.03, state: null },
  ],
}
const fits: QuestionFit = { ...unfit, median: 0.91, p10: 0.8, fits: true, lowest: [] }
const unknown: QuestionFit = { answers: 40, known: 0, median: null, p10: null, min_fit: 0.5, fits: null, lowest: [] }
const links = { path: 'sms/spam.judge.yaml', judgment: 'spam' }

t.test(
  'a question that does not fit is named, with its figures and its rows of lowest mass linked to review',
  async (t) => {
    const text = fitSection({ topic: unfit, is_spam: fits }, links, 'tok').text
    t.match(
      text,
      /Question <code>topic<\/code> does not fit its rows: its median option mass is 0\.12, below min_fit 0\.5 \(10th percentile 0\.04\)/,
    )
    t.notMatch(text, /Question <code>is_spam<\/code> does not fit/)
    t.match(
      text,
      /<li><strong>0\.02<\/strong> <span class="muted">message<\/span> &lt;b&gt;free&lt;\/b&gt; prize  <a href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;question=topic&amp;row=0123456789abcdef&amp;token=tok">review<\/a><\/li>/,
    )
    t.match(text, /row <code>1123456789abcdef<\/code> \(its values are no longer in the store\)/)
    t.match(
      text,
      /<tr><td><code>topic<\/code><\/td><td class="num">38 of 40<\/td><td class="num">0\.12<\/td><td class="num">0\.04<\/td><td class="num">0\.5<\/td><td><span class="alert">no<\/span><\/td><\/tr>/,
    )
    t.match(text, /<td><code>is_spam<\/code><\/td>.*<span class="good">yes<\/span>/)
  },
)

t.test('unknown fit says so; a run without a fit shows nothing; another page names the run', async (t) => {
  t.match(
    fitSection({ topic: unknown, is_spam: fits }, links, null).text,
    /<td class="num">–<\/td>.*unknown \(the engine gave no option mass\)/,
  )
  t.equal(
    fitSection({ topic: unknown }, links, null).text,
    '<p class="muted" id="fit">The engine gave no option mass for this run\'s answers, so whether its questions fit their rows is not known.</p>',
  )
  t.equal(fitSection({ topic: unknown }, { ...links, run: 'r1' }, null).text, '', 'nothing to say on another page')
  t.equal(fitSection({}, links, null).text, '')
  t.equal(fitSection(undefined, links, null).text, '')
  t.match(
    fitSection({ topic: fits }, { ...links, run: 'r 1' }, null).text,
    /From the newest run, <a href="\/runs\/r%201\?path=sms%2Fspam\.judge\.yaml"><code>r 1<\/code><\/a>\./,
  )
})
