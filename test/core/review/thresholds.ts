import t from 'tap'
import { DEFAULT_TARGET, routeThresholds, tunable } from '../../../src/core/review/thresholds.ts'
import type { ActRule } from '../../../src/core/types.ts'
import { auditOfPopulation, cellsOf, precisionPopulation, truePrecision } from '../../helpers/precision-population.ts'

const ge = (value: number) => ({ op: '>=' as const, value, text: `>= ${value}` })
const rules: ActRule[] = [
  { route: 'block', when: { label: ['yes'], p: ge(0.7) } },
  { route: 'review', when: { margin: { op: '<', value: 0.3, text: '< 0.3' } } },
  { route: 'deliver', when: {} },
]

t.test('only rules naming a label and testing p or margin from below are tuned', async (t) => {
  t.equal(tunable(rules[0]), 'p')
  t.equal(tunable({ route: 'x', when: { label: ['no'], margin: ge(0.5) } }), 'margin')
  t.equal(tunable(rules[1]), null, 'no label')
  t.equal(tunable(rules[2]), null)
  t.equal(
    tunable({ route: 'x', when: { label: ['no'], p: { op: '<', value: 0.6, text: '< 0.6' } } }),
    null,
    'a ceiling',
  )
})

t.test(
  "on a population with known precision per threshold, the suggested threshold's true precision meets the target",
  async (t) => {
    const rows = precisionPopulation(20000, 7)
    const [block] = routeThresholds({
      question: 'is_spam',
      rules,
      cells: cellsOf(rows),
      sampleDesign: auditOfPopulation(rows, 0.2, 6000, 11),
      unsureBelow: 0.2,
      target: DEFAULT_TARGET,
    })
    t.equal(DEFAULT_TARGET, 0.95)
    t.match(block, {
      question: 'is_spam',
      route: 'block',
      rule: 0,
      labels: ['yes'],
      variable: 'p',
      current: { comparison: '>= 0.7', threshold: 0.7 },
    })
    const suggested = block.suggested!
    t.ok(suggested, 'a threshold is suggested')
    t.ok(
      truePrecision(rows, suggested.threshold) >= 0.95,
      `threshold ${suggested.threshold}: true precision ${truePrecision(rows, suggested.threshold)}`,
    )
    t.ok(suggested.threshold <= 0.96, 'not needlessly strict: from 0.95 up the model is right 99% of the time')
    t.ok(suggested.interval![0] >= 0.95)
    const routed = rows.filter((r) => r.label === 'yes' && r.p >= suggested.threshold).length
    t.equal(suggested.routed, routed)
    t.equal(suggested.share, routed / rows.length)
    t.ok(suggested.share_interval![0] < suggested.share && suggested.share < suggested.share_interval![1])
    t.same(
      block.table.map((r) => r.threshold),
      [...block.table.map((r) => r.threshold)].sort((a, b) => b - a),
      'strictest first',
    )
    t.ok(
      Math.abs(block.current.precision! - truePrecision(rows, 0.7)) < 0.05,
      "the current rule's precision is estimated too",
    )
  },
)

t.test('no threshold is suggested when none reaches the target', async (t) => {
  const rows = precisionPopulation(5000, 3)
  const [block] = routeThresholds({
    question: 'is_spam',
    rules,
    cells: cellsOf(rows),
    sampleDesign: auditOfPopulation(rows, 0.2, 60, 5),
    unsureBelow: 0.2,
    target: 0.999,
  })
  t.equal(block.suggested, null)
  t.ok(block.table.length > 0)
})

t.test('a later rule only routes the rows earlier rules leave', async (t) => {
  const rows = precisionPopulation(5000, 3)
  const later: ActRule[] = [
    { route: 'first', when: { label: ['yes'], p: ge(0.9) } },
    { route: 'second', when: { label: ['yes'], p: ge(0.6) } },
  ]
  const [, second] = routeThresholds({
    question: 'is_spam',
    rules: later,
    cells: cellsOf(rows),
    sampleDesign: auditOfPopulation(rows, 0.2, 200, 5),
    unsureBelow: 0.2,
    target: 0.95,
  })
  t.equal(second.current.routed, rows.filter((r) => r.label === 'yes' && r.p >= 0.6 && r.p < 0.9).length)
})
