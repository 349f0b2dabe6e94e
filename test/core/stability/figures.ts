import t from 'tap'
import { nearThreshold, questionStability } from '../../../src/core/stability/figures.ts'
import { parseComparison } from '../../../src/core/spec/comparison.ts'
import type { ActRule } from '../../../src/core/types.ts'
import { routeFlipChance, shareJitter } from '../../../src/core/stability/sampled.ts'
import { reask } from '../../helpers/contracts/reask-store.ts'

const RULES: ActRule[] = [
  {
    route: 'block',
    when: { label: ['yes'], p: parseComparison('>= 0.9', 'spam.judge.yaml', 'act.is_spam[0].when.p') },
  },
  { route: 'deliver', when: {} },
]

// Unsure: 100 answers, 4 asked again, 2 flipped. Confident: 900 answers, 4 asked again, none flipped.
const unsure = (i: number, flip: boolean) =>
  reask({
    stateHash: `u${i}`,
    stratum: 'unsure',
    stratumSize: 100,
    stratumSampled: 4,
    storedLabel: 'yes',
    storedP: 0.55,
    storedMargin: 0.1,
    distribution: flip ? { yes: 0.45, no: 0.55 } : { yes: 0.55, no: 0.45 },
    label: flip ? 'no' : 'yes',
    p: 0.55,
    margin: 0.1,
  })
const confident = (i: number, p: number) =>
  reask({
    stateHash: `c${i}`,
    stratum: 'confident',
    stratumSize: 900,
    stratumSampled: 4,
    storedLabel: 'yes',
    storedP: 0.92,
    storedMargin: 0.84,
    distribution: { yes: p, no: 1 - p },
    label: 'yes',
    p,
    margin: 2 * p - 1,
  })
const REASKS = [
  unsure(0, true),
  unsure(1, true),
  unsure(2, false),
  unsure(3, false),
  confident(0, 0.92),
  confident(1, 0.92),
  confident(2, 0.88),
  confident(3, 0.96),
]

t.test(
  'the flip rate weighs each stratum by its answers, and p_jitter is the weighted mean |Δp| of the stored label',
  async (t) => {
    const s = questionStability({ rules: RULES, reasks: REASKS, cells: () => [] })!
    t.ok(Math.abs(s.flip_rate!.point - 0.1 * 0.5) < 1e-12, 'flip rate = 0.1 · 2/4 + 0.9 · 0')
    t.ok(s.flip_rate!.interval[0] < 0.05 && s.flip_rate!.interval[1] > 0.05)
    t.ok(
      Math.abs(s.p_jitter!.point - ((0.1 * (0.1 + 0.1)) / 4 + (0.9 * (0 + 0 + 0.04 + 0.04)) / 4)) < 1e-9,
      `${s.p_jitter!.point}`,
    )
    t.same(s.strata, [
      { stratum: 'split', size: 0, reasked: 0, flips: 0, from_samples: 0 },
      { stratum: 'unsure', size: 100, reasked: 4, flips: 2, from_samples: 0 },
      { stratum: 'confident', size: 900, reasked: 4, flips: 0, from_samples: 0 },
    ])
    t.match(s, { checked_at: '2026-01-01T00:00:00.000', reported_model: 'jev-1.2', reasked: 8 })
  },
)

t.test('a route flips when the new answer crosses a rule, whether or not its label changed', async (t) => {
  const s = questionStability({ rules: RULES, reasks: REASKS, cells: () => [] })!
  // Confident: 0.92 → 0.88 leaves block for deliver (1 of 4); unsure rows never reach 0.9.
  t.ok(Math.abs(s.route_flip_rate!.point - 0.9 * 0.25) < 1e-12, `${s.route_flip_rate!.point}`)
  t.equal(
    questionStability({ rules: [], reasks: REASKS, cells: () => [] })!.route_flip_rate,
    null,
    'no act rules, no route to flip',
  )
})

t.test('the answers near a p threshold are counted over the store, within the measured jitter', async (t) => {
  const cells = [
    { label: 'yes', p: 0.92, margin: 0.84, count: 30 },
    { label: 'yes', p: 0.6, margin: 0.2, count: 60 },
    { label: 'yes', p: 0.87, margin: 0.74, count: 10 },
  ]
  t.same(
    nearThreshold(RULES, () => cells, { point: 0.03, interval: [0, 0.1] }),
    {
      thresholds: [0.9],
      within: 0.03,
      count: 40,
      share: 0.4,
      answers: 100,
    },
  )
  t.match(
    nearThreshold(RULES, () => [{ label: 'yes', p: 0.9, margin: 0.8, count: 5 }, ...cells], {
      point: 0,
      interval: [0, 0.1],
    }),
    { within: 0, count: 0, share: 0, answers: 105 },
    'with no jitter, not even an answer at the threshold moves',
  )
  t.same(
    nearThreshold(RULES, () => [], { point: 0.03, interval: [0, 0.1] }),
    {
      thresholds: [0.9],
      within: 0.03,
      count: 0,
      share: 0,
      answers: 0,
    },
  )
  t.equal(
    nearThreshold(
      [{ route: 'x', when: { margin: parseComparison('< 0.3', 'spam.judge.yaml', 'act.is_spam[0].when.margin') } }],
      unread,
      { point: 0.03, interval: [0, 0.1] },
    ),
    null,
    'no p threshold',
  )
  t.equal(nearThreshold(RULES, unread, null), null, 'no jitter measured')
})

/** Cells no figure may read: reading them walks every answer of the question. */
const unread = (): never => {
  throw new Error('the cells were read')
}

t.test("the store's answers are read only for a question with re-asks", async (t) => {
  t.equal(questionStability({ rules: RULES, reasks: [], cells: unread }), null, 'never checked: nothing read')
  t.equal(questionStability({ rules: [], reasks: REASKS, cells: unread })!.near_threshold, null, 'no p threshold')
})

t.test('no re-asks, no figures; a stratum none of whose answers was asked again weighs nothing', async (t) => {
  const only = questionStability({
    rules: RULES,
    reasks: [
      reask({ stateHash: 'a', stratum: 'unsure', stratumSize: 5, label: 'no' }),
      reask({ stateHash: 'b', stratum: 'unsure', stratumSize: 5, label: 'yes' }),
    ],
    cells: () => [],
  })!
  t.equal(only.flip_rate!.point, 0.5, 'the unsure stratum alone')
  t.same(only.strata[2], { stratum: 'confident', size: 0, reasked: 0, flips: 0, from_samples: 0 })
  t.equal(
    questionStability({ rules: RULES, reasks: [reask({ stratumSize: 0 })], cells: () => [] })!.flip_rate,
    null,
    'a check of an empty stratum estimates nothing',
  )
})

t.test('a re-ask read from k draws counts its chances: 1 - p flips, the binomial jitter and route flips', async (t) => {
  const sampled = (i: number) =>
    reask({
      stateHash: `s${i}`,
      stratum: 'confident',
      stratumSize: 10,
      stratumSampled: 2,
      storedLabel: 'yes',
      storedP: 0.75,
      storedMargin: 0.5,
      distribution: { yes: 0.75, no: 0.25 },
      label: 'yes',
      p: 0.75,
      margin: 0.5,
      samples: 4,
    })
  const s = questionStability({ rules: RULES, reasks: [sampled(0), sampled(1)], cells: () => [] })!
  t.ok(Math.abs(s.flip_rate!.point - 0.25) < 1e-12, `${s.flip_rate!.point}`)
  t.ok(Math.abs(s.p_jitter!.point - shareJitter(4, 0.75)) < 1e-12)
  t.ok(Math.abs(s.route_flip_rate!.point - routeFlipChance(RULES, sampled(0), 4)) < 1e-12)
  t.same(s.strata.at(-1), { stratum: 'confident', size: 10, reasked: 2, flips: 0, from_samples: 2 })
})
