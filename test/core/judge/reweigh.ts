import t from 'tap'
import { judgeSpec, storedAnswers } from '../../../src/core/judge/judge-row.ts'
import { judgeRows } from '../../../src/core/judge/judge-rows.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { MIN_REVIEWED } from '../../../src/core/jury/dawid-skene.ts'
import { jurorDeps } from '../../helpers/deps.ts'
import { FAKE_JURY as JURY, sayingJurors } from '../../helpers/jury-fakes.ts'
import { juryOfThree, spec } from '../../helpers/specs.ts'

const trio = juryOfThree()
const [isSpam, topic] = trio.questions
const row = (message: string) => ({ row: { message }, where: 'row' })
const hash = (message: string) => stateHash({ message })
// claude-c says yes on even rows only; people agree with it, the others always say yes.
const odd = (m: string) => Number(m.slice(4)) % 2 === 1
const rows = Array.from({ length: MIN_REVIEWED + 4 }, (_, i) => `row ${i}`)

/** A jury of three fakes whose rows were judged before any review (equal votes), and people's labels since. */
async function votedJury() {
  const engines = sayingJurors((m) => (odd(m) ? 'no' : 'yes'))
  const reviewed = new Map(rows.slice(0, MIN_REVIEWED).map((m) => [hash(m), odd(m) ? 'no' : 'yes']))
  let reviewing = false
  const deps = jurorDeps(engines, undefined, {
    reviewedLabels: async () => (reviewing ? new Map([[isSpam.name, reviewed]]) : new Map()),
  })
  const ledger = createLedger(1)
  for (const m of rows.slice(0, MIN_REVIEWED)) await judgeSpec({ deps, ledger }, trio, row(m))
  reviewing = true
  const calls = () => [engines.own, engines.openai, engines.anthropic].reduce((n, e) => n + e.calls.length, 0)
  const jury = (m: string) => deps.store.getAnswers(JURY, hash(m), [isSpam.fingerprint, topic.fingerprint])
  return { deps, calls, jury, engines }
}

t.test("re-weighing replaces a jury's stored votes with its weighed answers, asking no juror", async (t) => {
  const { deps, calls, jury } = await votedJury()
  t.match(jury('row 1').get(isSpam.fingerprint), { source: 'vote', label: 'yes', dissent: 1 })
  const plain = await judgeSpec({ deps, ledger: createLedger(1) }, trio, row('row 1'))
  t.match(plain.answers.is_spam, { label: 'yes', p_source: 'vote' }, 'without reweigh the vote stands')
  const before = calls()
  const told: [string, number, number][] = []
  const ledger = createLedger(1)
  const job = { deps, ledger, reweigh: true, onReweighed: (...args: [string, number, number]) => told.push(args) }
  const result = await judgeSpec(job, trio, row('row 1'))
  t.equal(calls(), before, 'no juror is asked')
  t.match(result.answers.is_spam, { label: 'no', p_source: 'jury', cached: true })
  t.match(jury('row 1').get(isSpam.fingerprint), { source: 'jury', label: 'no', dissent: 2, judgment: 'trio' })
  t.match(jury('row 1').get(topic.fingerprint), { source: 'vote', label: 'promotion' }, 'no one reviewed topic')
  t.same(told, [['trio', 1, 1]], 'one answer changed, in label')
  t.match(ledger.tally('trio'), { asked: 0, cached: 2, requests: 0, cost: 0 })
  t.match(deps.store.getAnswers('gpt-b', hash('row 1'), [isSpam.fingerprint]).get(isSpam.fingerprint), {
    label: 'yes',
    source: 'distribution',
  })
  t.equal(deps.store.countAnswers(JURY, isSpam.fingerprint), MIN_REVIEWED, 'replaced, not added')
  t.same(deps.store.countSources(JURY, isSpam.fingerprint), { jury: 1, vote: MIN_REVIEWED - 1 })

  const again = await judgeSpec(job, trio, row('row 1'))
  t.match(again.answers.is_spam, { label: 'no', p_source: 'jury' })
  t.same(told.at(-1), ['trio', 0, 0], 'made again the same, nothing changes')
  await judgeSpec({ deps, ledger: createLedger(1), reweigh: true }, trio, row('row 3'))
  t.match(jury('row 3').get(isSpam.fingerprint), { source: 'jury', label: 'no' }, 'told of or not')
  const later = await judgeSpec({ deps, ledger: createLedger(1) }, trio, row('row 1'))
  t.match(later.answers.is_spam, { label: 'no', p_source: 'jury', cached: true }, 'a plain judging keeps it')
})

t.test('re-weighing a row the jury never judged asks its jurors and stores its answer', async (t) => {
  const { deps, calls, jury } = await votedJury()
  const before = calls()
  const told: [string, number, number][] = []
  const ledger = createLedger(1)
  const fresh = `row ${MIN_REVIEWED + 1}`
  const result = await judgeSpec(
    { deps, ledger, reweigh: true, onReweighed: (...args: [string, number, number]) => told.push(args) },
    trio,
    row(fresh),
  )
  t.equal(calls(), before + 3, 'each juror asked once')
  t.match(result.answers.is_spam, { label: 'no', p_source: 'jury', cached: false })
  t.match(jury(fresh).get(isSpam.fingerprint), { source: 'jury', label: 'no' })
  t.same(told, [['trio', 0, 0]], 'nothing stored was changed')
  t.match(ledger.tally('trio'), { asked: 2, cached: 0, requests: 3 })
})

t.test("the probe leaves a jury's rows to judging when re-weighing, not one model's", async (t) => {
  const { deps, calls, jury } = await votedJury()
  t.not(storedAnswers(deps, [trio], row('row 3')), null)
  t.equal(storedAnswers(deps, [trio], row('row 3'), undefined, true), null)
  const alone = spec(
    'state: [message]\nmodel: gpt-b\nquestions:\n  is_spam:\n    ask: Is this message spam?\n    type: yes_no\n',
    '/specs/alone.judge.yaml',
  )
  t.not(storedAnswers(deps, [alone], row('row 3'), undefined, true), null, "one model's stored answers still do")
  const single = await judgeSpec({ deps, ledger: createLedger(1), reweigh: true }, alone, row('row 3'))
  t.match(single.answers.is_spam, { label: 'yes', cached: true }, "and one model's answers are not made again")
  const before = calls()
  const odds = rows.slice(0, MIN_REVIEWED).filter(odd)
  let relabelled = 0
  const outcome = await judgeRows(
    { deps, ledger: createLedger(1), reweigh: true, onReweighed: (_j, _c, r) => void (relabelled += r) },
    [trio],
    [...odds, odds[0]].map(row),
    { concurrency: 1 },
  )
  t.equal(outcome.error, null)
  t.equal(calls(), before)
  t.equal(relabelled, odds.length, 'every row claude-c dissented on is relabelled, once')
  for (const m of odds) t.match(jury(m).get(isSpam.fingerprint), { source: 'jury', label: 'no' })
  t.match(jury('row 0').get(isSpam.fingerprint), { source: 'vote' }, 'rows not judged keep their vote')
})
