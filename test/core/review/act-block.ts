import t from 'tap'
import { actBlock } from '../../../src/core/review/act-block.ts'
import type { RouteThresholds, ThresholdFigures } from '../../../src/core/review/thresholds.ts'
import { spec } from '../../helpers/specs.ts'

const figures = (threshold: number): ThresholdFigures => ({
  threshold,
  routed: 410,
  share: 0.41,
  share_interval: [0.4, 0.42],
  sampled: 300,
  precision: 0.961,
  interval: [0.952, 0.97],
})
const tuned = (suggested: ThresholdFigures | null): RouteThresholds => ({
  question: 'is_spam',
  route: 'block',
  rule: 0,
  labels: ['yes'],
  variable: 'p',
  current: { ...figures(0.95), comparison: '>= 0.95' },
  suggested,
  target: 0.95,
  table: [],
})

t.test(
  'the act block carries the suggested threshold, a comment with its figures, and every other rule as it was',
  async (t) => {
    t.equal(
      actBlock(spec().act, [tuned(figures(0.97))]),
      [
        'act:',
        '  is_spam:',
        '    # precision 96.1% (95% interval 95.2% to 97.0%), routes 41.0% of answers',
        '    - route: block',
        '      when: {label: yes, p: ">= 0.97"}',
        '    - route: review',
        '      when: {margin: "< 0.3"}',
        '    - route: deliver',
        '',
      ].join('\n'),
    )
  },
)

t.test('a rule with no threshold reaching the target is kept, and says so; odd scalars are quoted', async (t) => {
  const block = actBlock(
    { is_spam: [{ route: 'true', when: { label: ['yes', 'no way'], p: { op: '>', value: 0.9, text: '> 0.9' } } }] },
    [tuned(null)],
  )
  t.match(
    block,
    /# no p threshold reaches 95\.0% precision at the lower end of its 95% interval: kept as it is\n {4}- route: "true"\n {6}when: \{label: \[yes, "no way"\], p: "> 0.9"\}\n$/,
  )
})
