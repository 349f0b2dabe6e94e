import { AGREEMENT_METHOD, type QuestionAgreement } from '../../src/core/agreement/agreement.ts'

const NO_RATERS = {
  ac1: null,
  ac1_interval: null,
  alpha: null,
  alpha_interval: null,
  alpha_level: 'nominal' as const,
}

/** A question's agreement as a report carries it, with κ as given; null: nothing reviewed yet, no people or key figures. */
export function agreementOf(kappa: number | null, over: Partial<QuestionAgreement> = {}): QuestionAgreement {
  const proportion = (point: number) => ({ point, interval: [point - 0.1, Math.min(1, point + 0.05)] as const })
  return {
    rows: kappa === null ? 0 : 40,
    kappa,
    kappa_interval: kappa === null ? null : [kappa - 0.2, Math.min(1, kappa + 0.1)],
    raw_agreement: kappa === null ? null : 0.9,
    raw_agreement_interval: kappa === null ? null : [0.8, 0.95],
    ac1: kappa === null ? null : kappa + 0.1,
    ac1_interval: kappa === null ? null : [kappa - 0.1, Math.min(1, kappa + 0.2)],
    kappa_linear: null,
    kappa_linear_interval: null,
    kappa_quadratic: null,
    kappa_quadratic_interval: null,
    confusion: { yes: { yes: 120, no: 30 }, no: { yes: 10, no: 840 } },
    per_label: {
      yes: { precision: proportion(0.8), recall: proportion(0.92), f1: proportion(0.86) },
      no: { precision: proportion(0.99), recall: proportion(0.97), f1: proportion(0.98) },
    },
    reason: kappa === null ? 'no reviewed random-sample row yet' : null,
    method: AGREEMENT_METHOD,
    reviewers: { ana: { rows: 5, agreement: 1, interval: [0.57, 1], flagged: false } },
    people:
      kappa === null
        ? {
            rows: 0,
            unlabelled: 0,
            raw_agreement: null,
            kappa: null,
            kappa_interval: null,
            reason: 'no row reviewed twice',
            ...NO_RATERS,
          }
        : {
            rows: 5,
            unlabelled: 0,
            raw_agreement: 1,
            kappa: 1,
            kappa_interval: [0.6, 1],
            reason: null,
            ac1: 0.9,
            ac1_interval: [0.7, 1],
            alpha: 0.8,
            alpha_interval: [0.6, 1],
            alpha_level: 'nominal' as const,
          },
    key_error: kappa === null ? null : { point: 0.05, interval: [0.02, 0.12], rows: 60, wrong: 3 },
    disagreements: [],
    disagreements_total: 0,
    ...over,
  }
}
