import t from 'tap'
import {
  binomial,
  flipChance,
  readFromSamples,
  routeFlipChance,
  sampledReask,
  shareJitter,
} from '../../../src/core/stability/sampled.ts'
import type { DrawnAnswer } from '../../../src/core/stability/reask.ts'
import { parseComparison } from '../../../src/core/spec/comparison.ts'
import type { ActRule } from '../../../src/core/types.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { reask } from '../../helpers/contracts/reask-store.ts'
import { spec, SPAM_YAML } from '../../helpers/specs.ts'

const IS_SPAM = spec(SPAM_YAML).questions[0]
const drawn = (over: Parameters<typeof answer>[0]): DrawnAnswer => ({
  question: IS_SPAM,
  stored: answer({ fingerprint: IS_SPAM.fingerprint, ...over }),
  stratum: 'unsure',
  size: 40,
  sampled: 4,
})

t.test('only an answer that is the share of two or more samples is read from its draws', async (t) => {
  t.equal(readFromSamples(drawn({ source: 'samples', samples: 5 })), true)
  t.equal(readFromSamples(drawn({ source: 'text', samples: 1 })), false)
  t.equal(readFromSamples(drawn({ source: 'samples', samples: 1 })), false)
  t.equal(readFromSamples(drawn({ source: 'samples', samples: null })), false)
  t.equal(readFromSamples(drawn({ source: 'logprobs' })), false)
  t.equal(readFromSamples(drawn({ source: null })), false)
})

t.test('its re-ask is the stored answer, with the draws it holds and the stratum it was drawn from', async (t) => {
  const d = drawn({ source: 'samples', samples: 5, distribution: { yes: 0.6, no: 0.4 }, p: 0.6, margin: 0.2 })
  t.same(sampledReask('c1', 'spam', 'jev-1', d), {
    check: 'c1',
    judgment: 'spam',
    question: 'is_spam',
    model: 'jev-1',
    fingerprint: IS_SPAM.fingerprint,
    stateHash: 'state-0',
    stratum: 'unsure',
    stratumSize: 40,
    stratumSampled: 4,
    storedLabel: 'yes',
    storedP: 0.6,
    storedMargin: 0.2,
    distribution: { yes: 0.6, no: 0.4 },
    label: 'yes',
    p: 0.6,
    margin: 0.2,
    askedAt: '2025-01-01T00:00:00',
    reportedModel: 'jev-1.0.3',
    samples: 5,
  })
  const { reportedModel: _, ...bare } = d.stored
  t.equal(sampledReask('c1', 'spam', 'jev-1', { ...d, stored: bare }).reportedModel, 'jev-1', 'else the model asked')
})

t.test('a fresh draw names another label with chance 1 - p', async (t) => {
  t.ok(Math.abs(flipChance(reask({ storedLabel: 'yes', distribution: { yes: 0.8, no: 0.2 } })) - 0.2) < 1e-12)
  t.equal(flipChance(reask({ storedLabel: 'maybe', distribution: { yes: 1 } })), 1, 'a label with no share')
})

t.test('the share of k draws varies as the binomial distribution says', async (t) => {
  t.same(binomial(2, 0.5), [0.25, 0.5, 0.25])
  t.ok(Math.abs(binomial(10, 0.3).reduce((a, b) => a + b, 0) - 1) < 1e-12, 'the chances add up to 1')
  t.equal(shareJitter(2, 0.5), 0.25, '0.25 x 0.5 + 0.5 x 0 + 0.25 x 0.5')
  t.equal(shareJitter(5, 1), 0, 'every draw the same: no jitter')
  t.ok(shareJitter(100, 0.5) < shareJitter(4, 0.5), 'more draws, less jitter')
})

t.test('a route flips with the chance that k fresh draws cross a rule or change the label', async (t) => {
  const rules: ActRule[] = [
    {
      route: 'block',
      when: { label: ['yes'], p: parseComparison('>= 0.75', 'spam.judge.yaml', 'act.is_spam[0].when.p') },
    },
    { route: 'deliver', when: {} },
  ]
  // Stored yes at 3 of 4 (p 0.75, block). Fresh draws of 4: yes 4 or 3 times blocks (0.75^4 + 4 x 0.75^3 x 0.25).
  const r = reask({ storedLabel: 'yes', storedP: 0.75, storedMargin: 0.5, distribution: { yes: 0.75, no: 0.25 } })
  const stay = 0.75 ** 4 + 4 * 0.75 ** 3 * 0.25
  t.ok(Math.abs(routeFlipChance(rules, r, 4) - (1 - stay)) < 1e-12, `${routeFlipChance(rules, r, 4)}`)
  // A label change alone flips a route only where the labels route apart.
  const byLabel: ActRule[] = [{ route: 'look', when: { label: ['no'] } }]
  const two = reask({ storedLabel: 'yes', storedP: 0.5, storedMargin: 0, distribution: { yes: 0.5, no: 0.5 } })
  // Of 2 draws: yes twice (0.25) stays, once each (0.5) ties and keeps yes, no twice (0.25) routes to look.
  t.equal(routeFlipChance(byLabel, two, 2), 0.25)
  t.equal(routeFlipChance([], two, 2), 0, 'no rules, no route to flip')
  const single = reask({ storedLabel: 'yes', storedP: 1, storedMargin: 1, distribution: { yes: 1 } })
  t.equal(routeFlipChance(rules, single, 3), 0, 'one label that every draw names')
})
