import t from 'tap'
import { krippendorffAlpha } from '../../../src/core/stats/krippendorff-alpha.ts'

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
// twelve units, values 1 to 5, missing ratings blank. The paper gives α = 0.743 (nominal) and
// α = 0.815 (ordinal).
const OBSERVERS = [
  ['1', '2', '3', '3', '2', '1', '4', '1', '2', '', '', ''],
  ['1', '2', '3', '3', '2', '2', '4', '1', '2', '5', '', '3'],
  ['', '3', '3', '3', '2', '3', '4', '2', '2', '5', '1', ''],
  ['1', '2', '3', '3', '2', '4', '4', '1', '2', '5', '1', ''],
]
const UNITS = OBSERVERS[0].map((_, u) => OBSERVERS.map((o) => o[u]).filter((v) => v !== ''))
const VALUES = ['1', '2', '3', '4', '5']

t.test("Krippendorff's 2011 worked example: nominal 0.743, ordinal 0.815", async (t) => {
  t.equal(krippendorffAlpha(UNITS, VALUES, 'nominal').toFixed(3), '0.743')
  t.equal(krippendorffAlpha(UNITS, VALUES, 'ordinal').toFixed(3), '0.815')
})

t.test('units with one rating are unpairable; nothing pairable or one value is undefined', async (t) => {
  t.equal(krippendorffAlpha([...UNITS, ['5'], []], VALUES, 'nominal'), krippendorffAlpha(UNITS, VALUES, 'nominal'))
  t.ok(Number.isNaN(krippendorffAlpha([['1'], ['2']], VALUES, 'nominal')))
  t.ok(
    Number.isNaN(
      krippendorffAlpha(
        [
          ['1', '1'],
          ['1', '1'],
        ],
        VALUES,
        'ordinal',
      ),
    ),
  )
  t.equal(
    krippendorffAlpha(
      [
        ['1', '1'],
        ['2', '2'],
      ],
      VALUES,
      'ordinal',
    ),
    1,
  )
})
