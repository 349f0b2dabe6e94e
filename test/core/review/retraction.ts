import t from 'tap'
import { lineOfRetraction, RETRACTED, standingVerdicts, type ReviewLine } from '../../../src/core/review/retraction.ts'
import { verdictKey, type VerdictRecord } from '../../../src/core/review/verdicts.ts'

function record(hash: string, verdict: VerdictRecord['verdict'], at: string, question = 'is_spam'): VerdictRecord {
  return {
    reviewed_at: at,
    reviewer: 'ann',
    judgment: 'spam',
    question,
    state_hash: hash,
    kind: 'spot_check',
    verdict,
    labels: [],
    model_label: 'no',
    key_label: null,
    state: { message: hash },
    stratum: 'confident',
    rank: 1,
  }
}

const v = (r: VerdictRecord): ReviewLine => ({ type: 'verdict', record: r })
const undo = (r: VerdictRecord): ReviewLine =>
  lineOfRetraction({ retracted_at: 'later', reviewer: 'bob', withdrawn: r })

t.test('the last verdict of a row stands, as lines are appended in the order verdicts arrive', async (t) => {
  const a1 = record('a', 'confirmed', '1')
  const a2 = record('a', 'ambiguous', '2')
  const b = record('b', 'confirmed', '3')
  t.same(
    standingVerdicts([v(a1), v(b), v(a2)]),
    new Map([
      [verdictKey('spam', 'is_spam', 'a'), a2],
      [verdictKey('spam', 'is_spam', 'b'), b],
    ]),
  )
})

t.test("a retraction withdraws the row's latest verdict only; the one before stands again", async (t) => {
  const a1 = record('a', 'confirmed', '1')
  const a2 = record('a', 'ambiguous', '2')
  const b = record('b', 'confirmed', '3')
  t.same([...standingVerdicts([v(a1), v(b), undo(b)]).values()], [a1], 'a row whose only verdict is withdrawn has none')
  t.same([...standingVerdicts([v(a1), v(a2), undo(a2)]).values()], [a1])
  t.same([...standingVerdicts([v(a1), v(a2), undo(a2), undo(a1)]).values()], [])
  t.same([...standingVerdicts([v(a1), undo(a1), v(a2)]).values()], [a2], 'a verdict after an undo stands')
})

t.test('a retraction touches its own question only, and one with nothing to withdraw changes nothing', async (t) => {
  const spam = record('a', 'confirmed', '1')
  const topic = record('a', 'confirmed', '2', 'topic')
  t.same([...standingVerdicts([v(spam), v(topic), undo(topic)]).values()], [spam])
  t.same([...standingVerdicts([undo(spam), v(spam)]).values()], [spam])
})

t.test('a retraction reads back as the row it withdraws from, and its cell says retracted', async (t) => {
  t.same(undo(record('a', 'confirmed', '1')), {
    type: 'retraction',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: 'a',
  })
  t.equal(RETRACTED, 'retracted')
})
