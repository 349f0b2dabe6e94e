import t from 'tap'
import {
  questionSample,
  knownHashes,
  knownRows,
  rowsToRead,
  weightedRows,
} from '../../../src/core/review/sample-design.ts'
import { verdictKey, type KeyRow, type VerdictRecord } from '../../../src/core/review/verdicts.ts'
import type { StoredAnswer } from '../../../src/ports/answer-store.ts'
import { spec } from '../../helpers/specs.ts'

const isSpam = spec().questions[0]

function answer(hash: string, yes: number): StoredAnswer {
  const no = Math.round((1 - yes) * 100) / 100
  return {
    model: 'm',
    fingerprint: 'f',
    stateHash: hash,
    judgment: 'spam',
    question: 'is_spam',
    distribution: { yes, no },
    label: yes >= no ? 'yes' : 'no',
    p: Math.max(yes, no),
    margin: Math.round(Math.abs(yes - no) * 100) / 100,
    askedAt: '',
  }
}
function verdict(
  hash: string,
  verdict: VerdictRecord['verdict'],
  labels: string[],
  question = 'is_spam',
): [string, VerdictRecord] {
  return [
    verdictKey('spam', question, hash),
    {
      reviewed_at: '',
      reviewer: 'ann',
      judgment: 'spam',
      question,
      state_hash: hash,
      kind: 'spot_check',
      verdict,
      labels,
      model_label: 'yes',
      key_label: null,
      state: {},
      stratum: null,
      rank: null,
    },
  ]
}
const keyRow = (hash: string, label?: string): [string, KeyRow] => [
  hash,
  { stateHash: hash, state: {}, labels: label ? { is_spam: label } : {}, where: 'key.csv' },
]

const answers = new Map(['a', 'b', 'c', 'k1', 'k2', 'u1'].map((h) => [h, answer(h, h === 'u1' ? 0.55 : 0.9)]))
const verdicts = new Map([
  verdict('a', 'confirmed', ['yes']),
  verdict('b', 'ambiguous', []),
  verdict('k1', 'key_right', ['no']),
  verdict('c', 'confirmed', ['yes'], 'topic'),
  verdict('u1', 'labeled', ['no']),
])
const key = new Map([keyRow('k1', 'yes'), keyRow('k2', 'no'), keyRow('k3', 'yes'), keyRow('k4')])

t.test(
  "a chosen key is known only through verdicts; a random key's labels count, overridden by verdicts",
  async (t) => {
    const base = { judgment: 'spam', question: isSpam, key, verdicts }
    t.same(knownHashes({ ...base, randomKey: false }).sort(), ['a', 'b', 'k1', 'u1'])
    t.same(knownHashes({ ...base, randomKey: true }).sort(), ['a', 'b', 'k1', 'k2', 'k3', 'u1'])
    const chosen = knownRows({ ...base, randomKey: false, answers })
    t.same(
      [...chosen].map(([h, r]) => [h, r.truth, r.randomKey]),
      [
        ['a', { labels: ['yes'] }, false],
        ['b', { excluded: 'ambiguous' }, false],
        ['k1', { labels: ['no'] }, false],
        ['u1', { labels: ['no'] }, false],
      ],
    )
    const random = knownRows({ ...base, randomKey: true, answers })
    t.same(
      random.get('k1'),
      { answer: answers.get('k1'), truth: { labels: ['no'] }, randomKey: true },
      'the verdict overrides the key',
    )
    t.same(random.get('k2')?.truth, { labels: ['no'] })
    t.notOk(random.has('k3'), 'a key row without a current answer is not in the population')
  },
)

t.test('known rows go to the stratum of their current margin; the rank order is read one past them', async (t) => {
  const known = knownRows({ judgment: 'spam', question: isSpam, key, verdicts, randomKey: false, answers })
  t.same(rowsToRead(known, 0.2, 1), { split: 2, unsure: 3, confident: 5 })
  const strata = {
    unsure: { size: 10, rows: [answers.get('u1')!] },
    confident: { size: 90, rows: ['a', 'b', 'k1', 'c'].map((h) => answers.get(h)!) },
  }
  const audit = questionSample({ question: isSpam, unsureBelow: 0.2, strata, known })
  t.same(
    audit.strata.confident.rows.map((r) => r.stateHash),
    ['a', 'k1'],
  )
  t.match(audit.strata.confident, { sampled: 3, ambiguous: 1, next: 'c' })
  t.same(
    audit.strata.unsure.rows.map((r) => [r.stateHash, r.correct]),
    [['u1', false]],
  )
  t.same(
    weightedRows(audit).map((w) => [w.row.stateHash, w.weight]),
    [
      ['u1', 10],
      ['a', 45],
      ['k1', 45],
    ],
    "each row stands for its stratum's answers over its labelled rows",
  )
})
