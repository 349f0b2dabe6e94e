import t from 'tap'
import { agreementLines } from '../../src/cli/agreement-text.ts'
import { agreementOf } from '../helpers/agreement.ts'

t.test('κ is shown with its interval and raw agreement beside it, then the people and the key', async (t) => {
  t.same(agreementLines(agreementOf(0.71)), [
    '    agreement with people: κ 0.71 (95% 0.51 to 0.81), raw agreement 90.0%, over 40 sampled rows',
    '    beside κ: AC1 0.81 (95% 0.61 to 0.91)',
    "    every reviewer's verdicts: AC1 0.90 (95% 0.70 to 1.00), α (nominal) 0.80 (95% 0.60 to 1.00)",
    '    between reviewers: κ 1.00 (95% 0.60 to 1.00), raw agreement 100.0%, over 5 rows reviewed twice',
    '    answer key wrong on 5.0% of 60 reviewed key rows (95% 2.0% to 12.0%)',
  ])
})

t.test('without a sample it says why; a flagged reviewer is named; no people or key figures, no lines', async (t) => {
  const flagged = agreementOf(null, {
    people: {
      rows: 30,
      unlabelled: 0,
      raw_agreement: 0.6,
      kappa: null,
      kappa_interval: null,
      reason: 'one label only',
      ac1: null,
      ac1_interval: null,
      alpha: null,
      alpha_interval: null,
      alpha_level: 'nominal',
    },
    reviewers: {
      ana: { rows: 30, agreement: 0.9, interval: [0.8, 0.95], flagged: false },
      cal: { rows: 30, agreement: 0.4, interval: [0.3, 0.55], flagged: true },
    },
    key_error: null,
  })
  t.same(agreementLines(flagged), [
    '    agreement with people: not yet (no reviewed random-sample row yet)',
    '    between reviewers: no κ (one label only), raw agreement 60.0%, over 30 rows reviewed twice; far below the others: cal',
  ])
  t.same(agreementLines(agreementOf(null)).length, 1)
})
