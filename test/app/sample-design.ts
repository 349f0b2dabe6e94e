import t from 'tap'
import { sampleDesigns, sampleDesignOf } from '../../src/app/sample-design.ts'
import type { ReviewSource } from '../../src/app/review-source.ts'
import type { KeyRow } from '../../src/core/review/verdicts.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { hashOf, putSpam, spamVerdict } from '../helpers/spam-answers.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

const judgment = spec()
const isSpam = judgment.questions[0]

function setup() {
  const store = createMemoryStore()
  for (let i = 0; i < 40; i++) putSpam(store, isSpam, `m${i}`, i < 10 ? 0.55 : 0.95)
  const first = (stratum: { from: number; below: number }) =>
    store.sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 40, stratum).map((a) => a.stateHash)
  const messages = new Map(Array.from({ length: 40 }, (_, i) => [hashOf(`m${i}`), `m${i}`]))
  return {
    store,
    unsure: first({ from: -Infinity, below: 0.2 }).map((h) => messages.get(h)!),
    confident: first({ from: 0.2, below: Infinity }).map((h) => messages.get(h)!),
  }
}

t.test(
  "the audit reads each stratum's rank order past its reviewed rows and samples the reviewed prefix",
  async (t) => {
    const { store, unsure, confident } = setup()
    const verdicts = new Map([
      spamVerdict(unsure[0], 'confirmed', ['yes']),
      spamVerdict(confident[0], 'labeled', ['no']),
      spamVerdict(confident[1], 'confirmed', ['yes']),
      spamVerdict(confident[3], 'confirmed', ['yes']),
    ])
    const source: ReviewSource = { store, model: 'm', spec: judgment, key: new Map(), verdicts }
    const audit = sampleDesignOf(source, isSpam)
    t.match(audit.strata.unsure, { size: 10, sampled: 1, next: hashOf(unsure[1]) })
    t.match(audit.strata.confident, { size: 30, sampled: 2, outside: 1, next: hashOf(confident[2]) })
    t.same(
      audit.strata.confident.rows.map((r) => r.correct),
      [false, true],
    )
    t.same([...sampleDesigns(source).keys()], ['is_spam', 'topic', 'urgency'])
  },
)

t.test('a random key counts wherever its rows fall; a chosen one does not', async (t) => {
  const { store, confident } = setup()
  const key = new Map(
    [confident[5], confident[9]].map((m): [string, KeyRow] => [
      hashOf(m),
      { stateHash: hashOf(m), state: { message: m }, labels: { is_spam: 'yes' }, where: 'key.csv' },
    ]),
  )
  const random: ReviewSource = {
    store,
    model: 'm',
    spec: spec(SPAM_YAML + 'key_sample: random\n'),
    key,
    verdicts: new Map(),
  }
  t.match(sampleDesignOf(random, isSpam).strata.confident, { sampled: 2, next: hashOf(confident[0]) })
  t.match(sampleDesignOf({ ...random, spec: judgment }, isSpam).strata.confident, { sampled: 0, needed: 1 })
})
