import t from 'tap'
import { formatUsd, percent } from '../src/format.ts'

t.test('USD shows sub-cent amounts without trailing zeros', async (t) => {
  t.equal(formatUsd(0), '0.00')
  t.equal(formatUsd(0.01), '0.01')
  t.equal(formatUsd(0.0000126), '0.000013')
  t.equal(formatUsd(1.5), '1.50')
  t.equal(formatUsd(0.5), '0.50')
})

t.test('USD too small for six decimals keeps two significant digits, never reading as zero', async (t) => {
  t.equal(formatUsd(0.0000001), '0.0000001')
  t.equal(formatUsd(0.000000015), '0.000000015')
  t.equal(formatUsd(0.00001234), '0.000012')
  t.equal(formatUsd(1e-12), '0.000000000001')
})

t.test('a share reads as a percentage with one decimal', async (t) => {
  t.equal(percent(0.1234), '12.3%')
  t.equal(percent(1), '100.0%')
})
