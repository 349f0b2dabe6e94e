import t from 'tap'
import { wilsonInterval } from '../../../src/core/stats/wilson.ts'
import { verdictKey, type KeyRow, type VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { keyError } from '../../../src/core/agreement/key-error.ts'

const keyRow = (hash: string, label: string): [string, KeyRow] => [
  hash,
  { stateHash: hash, state: {}, labels: { is_spam: label }, where: `key.csv:${hash}` },
]
const key = new Map([keyRow('a', 'yes'), keyRow('b', 'yes'), keyRow('c', 'no'), keyRow('d', 'no'), keyRow('e', 'yes')])
const record = (
  hash: string,
  verdict: VerdictRecord['verdict'],
  labels: string[],
  judgment = 'spam',
): [string, VerdictRecord] => [
  verdictKey(judgment, 'is_spam', hash),
  {
    reviewed_at: '2026-03-01T10:00:00.000',
    reviewer: 'ann',
    judgment,
    question: 'is_spam',
    state_hash: hash,
    kind: 'disagreement',
    verdict,
    labels,
    model_label: 'no',
    key_label: 'yes',
    state: {},
    stratum: null,
    rank: null,
  },
]

t.test(
  "the share of reviewed key rows whose verdict does not keep the key's label, with Wilson's interval",
  async (t) => {
    const verdicts = new Map([
      record('a', 'key_right', ['yes']),
      record('b', 'model_right', ['no']),
      record('c', 'both_ok', ['no', 'yes']),
      record('d', 'needs_context', []),
      record('e', 'model_right', ['no'], 'other'),
      record('z', 'labeled', ['no']),
    ])
    t.same(keyError('spam', 'is_spam', key, verdicts), {
      point: 1 / 3,
      interval: wilsonInterval(1, 3),
      rows: 3,
      wrong: 1,
    })
  },
)

t.test('null when no key row has a verdict with a label', async (t) => {
  t.equal(keyError('spam', 'is_spam', key, new Map([record('d', 'ambiguous', [])])), null)
  t.equal(keyError('spam', 'topic', key, new Map([record('a', 'key_right', ['yes'])])), null)
})
