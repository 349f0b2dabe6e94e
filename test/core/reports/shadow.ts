import t from 'tap'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { judgeRow, type SpecResult } from '../../../src/core/judge/judge-row.ts'
import { pairJudgments, shadowAgreement, shadowPairsOf, sharedQuestions } from '../../../src/core/reports/shadow.ts'
import type { Spec } from '../../../src/core/types.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { candidateYaml, project, spec } from '../../helpers/specs.ts'

const AT = '2026-11-22T10:00:00.000'

const live = spec()
const candidate = spec(candidateYaml(['personal', 'promotion', 'service']), '/candidates/spam-v2.judge.yaml')
const ham = spec(
  'name: ham\nstate: [message]\nquestions:\n  is_ham:\n    ask: Is it ham?\n    type: yes_no\n',
  '/specs/ham.judge.yaml',
)
const candidateHam = spec(
  'name: ham\nstate: [message]\nquestions:\n  is_ham:\n    ask: Is it really ham?\n    type: yes_no\n',
  '/candidates/ham.judge.yaml',
)

/** A judgment's result on one row with the given labels. */
function result(s: Spec, stateHash: string, labels: Record<string, string>): SpecResult {
  const answers = Object.fromEntries(
    Object.entries(labels).map(([q, label]) => [
      q,
      { label, p: 0.9, margin: 0.8, route: '', cached: true, p_source: null },
    ]),
  )
  return { spec: s, model: 'jev-test', state: { message: 'hi' }, stateHash, answers, stored: new Map() }
}

const results = (...list: SpecResult[]) => new Map(list.map((r) => [r.spec.name, r]))

t.test('a candidate spec file meets the live node on every question of the same name', async (t) => {
  const pairs = shadowPairsOf(
    results(result(live, 'state-live', { is_spam: 'yes', topic: 'promotion', urgency: 'high' })),
    results(result(candidate, 'state-cand', { is_spam: 'no', topic: 'promotion', tone: 'yes' })),
    [live],
    [candidate],
    AT,
  )
  t.same(
    pairs,
    [
      {
        liveJudgment: 'spam',
        candidateJudgment: 'spam-v2',
        candidateHash: candidate.hash,
        stateHash: 'state-live',
        question: 'is_spam',
        liveLabel: 'yes',
        candidateLabel: 'no',
        at: AT,
      },
      {
        liveJudgment: 'spam',
        candidateJudgment: 'spam-v2',
        candidateHash: candidate.hash,
        stateHash: 'state-live',
        question: 'topic',
        liveLabel: 'promotion',
        candidateLabel: 'promotion',
        at: AT,
      },
    ],
    'keyed by the live state hash and the candidate spec hash; urgency and tone have no counterpart',
  )
})

t.test('a candidate folder meets each live judgment of the same name and skips the rest', async (t) => {
  const pairs = shadowPairsOf(
    results(
      result(live, 's1', { is_spam: 'yes', topic: 'service', urgency: 'low' }),
      result(ham, 's2', { is_ham: 'no' }),
    ),
    results(
      result(candidate, 's3', { is_spam: 'no', topic: 'service', tone: 'no' }),
      result(candidateHam, 's4', { is_ham: 'yes' }),
    ),
    [live, ham],
    [candidate, candidateHam],
    AT,
  )
  t.same(
    pairs.map((p) => [p.liveJudgment, p.candidateJudgment, p.question, p.stateHash, p.liveLabel, p.candidateLabel]),
    [['ham', 'ham', 'is_ham', 's2', 'no', 'yes']],
  )
  t.equal(pairs[0].candidateHash, candidateHam.hash)
})

t.test('a single candidate against several live judgments pairs only by name', async (t) => {
  t.same(
    pairJudgments([live, ham], [candidateHam]).map((p) => [p.live.name, p.candidate.name]),
    [['ham', 'ham']],
  )
  t.same(pairJudgments([live, ham], [candidate]), [])
  t.same(pairJudgments([live], [candidate, candidateHam]), [], 'a folder against one node needs a namesake')
})

t.test('a judgment missing from either result gives no pairs', async (t) => {
  const liveOnly = results(result(live, 's1', { is_spam: 'yes', topic: 'service', urgency: 'low' }))
  t.same(shadowPairsOf(liveOnly, new Map(), [live], [candidate], AT), [])
  t.same(
    shadowPairsOf(
      new Map(),
      results(result(candidate, 's1', { is_spam: 'no', topic: 'service', tone: 'no' })),
      [live],
      [candidate],
      AT,
    ),
    [],
  )
})

t.test('shared questions follow the live judgment order', async (t) => {
  t.same(
    sharedQuestions({ live, candidate }).map((q) => [q.name, q.live.ask, q.candidate.ask]),
    [
      ['is_spam', 'Is this message unsolicited advertising or a scam?', 'Is this message spam?'],
      ['topic', 'What is the message mainly about?', 'What is the message mainly about?'],
    ],
  )
})

t.test('pairs of judged rows carry the labels the two judgments gave', async (t) => {
  const engine = createFakeEngine({
    answer: (q) =>
      q.type === 'yes_no'
        ? q.ask === 'Is this message spam?'
          ? { yes: 0.2, no: 0.8 }
          : { yes: 0.7, no: 0.3 }
        : Object.fromEntries(q.labels.map((l, i) => [l, i === 1 ? 1 : 0])),
  })
  const d = deps(engine)
  const row = { message: 'WIN a prize now' }
  const liveResults = await judgeRow({ deps: d, ledger: createLedger(1) }, project(live), [live], {
    row,
    where: 'request',
  })
  const candidateResults = await judgeRow({ deps: d, ledger: createLedger(1) }, project(candidate), [candidate], {
    row,
    where: 'shadow',
  })
  const pairs = shadowPairsOf(liveResults, candidateResults, [live], [candidate], AT)
  t.same(
    pairs.map((p) => [p.question, p.liveLabel, p.candidateLabel]),
    [
      ['is_spam', 'yes', 'no'],
      ['topic', 'promotion', 'promotion'],
    ],
  )
  t.equal(pairs[0].stateHash, liveResults.get('spam')!.stateHash)
})

t.test('shadow agreement groups pairs by candidate, spec hash and question', async (t) => {
  const p = (candidateHash: string, question: string, liveLabel: string, candidateLabel: string, at: string) => ({
    liveJudgment: 'spam',
    candidateJudgment: 'spam-v2',
    candidateHash,
    stateHash: at,
    question,
    liveLabel,
    candidateLabel,
    at,
  })
  const report = shadowAgreement([
    p('h1', 'is_spam', 'yes', 'yes', '1'),
    p('h1', 'is_spam', 'no', 'yes', '3'),
    p('h1', 'is_spam', 'no', 'no', '2'),
    p('h1', 'topic', 'a', 'a', '1'),
    p('h2', 'is_spam', 'yes', 'no', '4'),
  ])
  t.same(report, [
    {
      candidate: 'spam-v2',
      candidateHash: 'h1',
      question: 'is_spam',
      rows: 3,
      agree: 2,
      agreement: 0.666666667,
      last: '3',
    },
    { candidate: 'spam-v2', candidateHash: 'h1', question: 'topic', rows: 1, agree: 1, agreement: 1, last: '1' },
    { candidate: 'spam-v2', candidateHash: 'h2', question: 'is_spam', rows: 1, agree: 0, agreement: 0, last: '4' },
  ])
})
