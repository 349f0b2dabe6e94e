import t from 'tap'
import { stabilitySection } from '../../../src/http/pages/stability-section.ts'
import type { QuestionStability } from '../../../src/core/stability/figures.ts'

const CHECKED: QuestionStability = {
  checked_at: '2026-11-22T10:00:00.000',
  reported_model: 'jev-1.13.0',
  reasked: 200,
  strata: [
    { stratum: 'unsure', size: 150, reasked: 100, flips: 12, from_samples: 0 },
    { stratum: 'confident', size: 850, reasked: 100, flips: 1, from_samples: 0 },
  ],
  flip_rate: { point: 0.0265, interval: [0.012, 0.05] },
  p_jitter: { point: 0.0213, interval: [0.015, 0.03] },
  route_flip_rate: null,
  near_threshold: { thresholds: [0.95], within: 0.0213, count: 37, share: 0.037, answers: 1000 },
  method: 'm',
}

t.test(
  'each checked question shows its flip rate, jitter, route flips and answers near a threshold, with intervals',
  async (t) => {
    const text = stabilitySection({ is_spam: CHECKED, topic: null }).text
    t.match(text, /<h2 id="stability">Stability: the engine asked again<\/h2>/)
    t.match(
      text,
      /<tr><td><code>is_spam<\/code><\/td><td>2026-11-22T10:00:00\.000<\/td><td class="num">200<\/td>\n<td class="num">2\.6% \(1\.2% to 5\.0%\)<\/td><td class="num">0\.021 \(0\.015 to 0\.030\)<\/td><td class="num">–<\/td><td class="num">37 of 1000 \(3\.7%\) within 0\.021 of 0\.95<\/td><\/tr>/,
    )
    t.notMatch(text, /<code>topic<\/code>/, 'a question never checked has no row')
    t.match(
      stabilitySection({ q: { ...CHECKED, flip_rate: null, p_jitter: null, near_threshold: null } }).text,
      /<td class="num">–<\/td><td class="num">–<\/td><td class="num">–<\/td><td class="num">–<\/td>/,
    )
  },
)

t.test('with no p jitter measured, no answer is said to be near a threshold', async (t) => {
  const still = { ...CHECKED, near_threshold: { ...CHECKED.near_threshold!, within: 0, count: 0, share: 0 } }
  t.match(stabilitySection({ is_spam: still }).text, /<td class="num">none: no p moved when asked again<\/td><\/tr>/)
})

t.test('before any check there is no section', async (t) => {
  t.equal(stabilitySection(null).text, '')
  t.equal(stabilitySection(undefined).text, '')
  t.equal(stabilitySection({ is_spam: null }).text, '')
})
