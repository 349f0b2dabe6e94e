import t from 'tap'
import { lnGamma } from '../../../src/core/stats/ln-gamma.ts'

const close = (a: number, b: number, tolerance = 1e-12) => Math.abs(a - b) <= tolerance

t.test('ln Γ matches the factorials, Γ(½) = √π, and the reflection below ½', async (t) => {
  t.ok(close(lnGamma(5), Math.log(24)), 'Γ(5) = 4!')
  t.ok(close(lnGamma(1), 0) && close(lnGamma(2), 0), 'Γ(1) = Γ(2) = 1')
  t.ok(close(lnGamma(0.5), Math.log(Math.sqrt(Math.PI))), 'Γ(½) = √π')
  t.ok(close(lnGamma(0.25), 1.2880225246980774, 1e-11), 'Γ(¼), below ½ by reflection (scipy.special.gammaln(0.25))')
  t.ok(close(lnGamma(171), 706.5730622457875, 1e-9), 'ln 170! (scipy.special.gammaln(171))')
})
