import t from 'tap'
import { sourcesSection, textOnlyWarning } from '../../../src/http/pages/sources-section.ts'

t.test('a question answered from text is warned of by name, escaped; any other gets nothing', async (t) => {
  const warning = textOnlyWarning('<q>', { text: 2 })
  t.equal(
    warning === '' ? '' : warning.text,
    '<p class="alert text-only"><code>&lt;q&gt;</code> answered from text alone: p is 1 for every answer, so routes ' +
      'and thresholds on p or margin mean nothing; set ENGINE_SAMPLES above 1.</p>',
  )
  t.equal(textOnlyWarning('q', { samples: 2 }), '')
  t.equal(textOnlyWarning('q', undefined), '')
})

t.test('the run section lists each counted question and warns after the list', async (t) => {
  const text = sourcesSection({ a: { jury: 3 }, b: { text: 1 } }).text
  t.match(text, /<li><code>a<\/code>: p from the jury&#39;s verdict weighted by people&#39;s \(3 answers\)<\/li>/)
  t.match(text, /<\/ul>\n<p class="alert text-only"><code>b<\/code> answered from text alone/)
})
