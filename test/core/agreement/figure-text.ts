import t from 'tap'
import { modelFigureText, raterFigureText } from '../../../src/core/agreement/figure-text.ts'
import { agreementOf } from '../../helpers/agreement.ts'

t.test('the figures beside κ in words, each with its interval; none, no text', async (t) => {
  const a = agreementOf(0.5, {
    kappa_linear: 0.6,
    kappa_linear_interval: [0.4, 0.8],
    kappa_quadratic: 0.7,
    kappa_quadratic_interval: null,
  })
  t.equal(modelFigureText(a), 'AC1 0.60 (95% 0.40 to 0.70), linear κ 0.60 (95% 0.40 to 0.80), quadratic κ 0.70')
  t.equal(raterFigureText(a), 'AC1 0.90 (95% 0.70 to 1.00), α (nominal) 0.80 (95% 0.60 to 1.00)')
  t.equal(modelFigureText(agreementOf(null)), null)
  t.equal(raterFigureText(agreementOf(null)), null)
})
