import t from 'tap'
import { createLandedCounter } from '../../../src/core/batch/count.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { spec } from '../../helpers/specs.ts'

t.test('rows the store answers are counted as judged rows; the rest apart', async (t) => {
  const d = deps(createFakeEngine())
  const s = spec()
  const hash = stateHash({ message: 'a' })
  d.store.putAnswers(
    s.questions.map((q) => ({
      model: 'jev-test',
      fingerprint: q.fingerprint,
      stateHash: hash,
      judgment: 'spam',
      question: q.name,
      distribution: Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 1 : 0])),
      label: q.labels[0],
      p: 1,
      margin: 1,
      askedAt: '2026-01-01T00:00:00',
      reportedModel: 'jev-test',
      optionMass: null,
    })),
    hash,
    { message: 'a' },
  )
  const ledger = createLedger(1)
  const counter = createLandedCounter(d, ledger, [s])
  for (const m of ['a', 'b', 'a']) counter.add({ row: { message: m }, where: m })
  const { outcome, unanswered } = counter.result()
  t.equal(unanswered, 1)
  t.equal(outcome.rows.get('spam'), 2)
  t.equal(outcome.states.get('spam')!.size, 1)
  t.match(ledger.tally('spam'), { cached: 3, duplicates: 1 })
})
