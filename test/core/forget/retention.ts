import t from 'tap'
import { DAY_MS, retentionCutoff } from '../../../src/core/forget/retention.ts'

t.test('the cutoff is whole days before now, as the store writes times', async (t) => {
  const now = new Date('2026-03-31T12:00:00.000Z')
  t.equal(retentionCutoff(now, 30), '2026-03-01T12:00:00.000')
  t.equal(retentionCutoff(now, 1), '2026-03-30T12:00:00.000')
  t.equal(DAY_MS, 24 * 60 * 60 * 1000)
})

t.test('a time written just before the cutoff sorts before it as text, one just after does not', async (t) => {
  const cutoff = retentionCutoff(new Date('2026-03-31T12:00:00.000Z'), 30)
  t.ok('2026-03-01T11:59:59.999' < cutoff)
  t.notOk('2026-03-01T12:00:00.001' < cutoff)
})
