import t from 'tap'
import { landBatch } from '../../../src/app/batch/land.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createFakeBatchLane } from '../../helpers/fake-batch-lane.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'
import { spec } from '../../helpers/specs.ts'

const s = spec()
const item = (m: string) => ({
  key: `k-${m}`,
  request: { model: 'jev-test', state: { message: m }, questions: s.questions },
})

t.test('answers land through putAnswers, what got none is returned, and the batch is recorded landed', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  const lane = createFakeBatchLane(engine, {
    outcome: (i) =>
      i.key === 'k-b'
        ? { key: 'k-b', ok: false, reason: 'expired' }
        : i.key === 'k-c'
          ? { key: 'k-c', ok: true, result: { model: 'x', distributions: {}, inputTokens: 1, outputTokens: 0 } }
          : i.key === 'k-d'
            ? { key: 'stray', ok: true, result: { model: 'x', distributions: {}, inputTokens: 1, outputTokens: 0 } }
            : undefined,
  })
  d.store.recordBatch(batchRecord(), [])
  const status = await lane.create('file-1', batchRecord().tag)
  const ledger = createLedger(1)
  const sub = { batch: batchRecord(), recovering: false }
  const itemsOf = async () => ['a', 'b', 'c', 'd'].map(item)
  const failed = await landBatch(d, lane, s, sub, itemsOf, { ...status, state: 'expired' }, { ledger, price: 1 })
  t.same(
    failed.map((f) => (f.ok ? f.key : `${f.key} ${f.reason}`)),
    ['k-b expired', 'k-c judgment spam: the engine gave no answer to question is_spam', 'stray not asked'],
  )
  t.equal(
    d.store.getAnswers(
      'jev-test',
      (await import('../../../src/core/judge/state.ts')).stateHash({ message: 'a' }),
      s.questions.map((q) => q.fingerprint),
    ).size,
    3,
  )
  t.match(ledger.tally('spam'), { asked: 3 })
  t.ok(ledger.tally('spam').cost > 0)
  t.match(d.store.listBatches()[0], { state: 'expired', landedAt: '2026-11-22T10:00:00.000' })
})
