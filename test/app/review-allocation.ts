import t from 'tap'
import { spotChecks } from '../../src/app/review-allocation.ts'
import { strataState } from '../../src/core/allocation/neyman.ts'
import { sampleDesignOf } from '../../src/app/sample-design.ts'
import { queueData, type ReviewSource } from '../../src/app/review-data.ts'
import { verdictKey, type VerdictRecord } from '../../src/core/review/verdicts.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Spec } from '../../src/core/types.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

const judgment: Spec = spec(SPAM_YAML + 'unsure_below: 0.2\n')
const isSpam = judgment.questions[0]
const hashOf = (message: string) => stateHash({ message })

/** 40 unsure answers (p 0.55) and 160 confident ones (p 0.9), all labelled yes. */
function setup() {
  const store = createMemoryStore()
  for (let i = 0; i < 200; i++) {
    const yes = i < 40 ? 0.55 : 0.9
    store.putAnswers(
      [
        {
          model: 'm',
          fingerprint: isSpam.fingerprint,
          stateHash: hashOf(`m${i}`),
          judgment: 'spam',
          question: 'is_spam',
          distribution: { yes, no: 1 - yes },
          label: 'yes',
          p: yes,
          margin: 2 * yes - 1,
          askedAt: '2026-01-01T00:00:00.000',
        },
      ],
      hashOf(`m${i}`),
      { message: `m${i}` },
    )
  }
  const ranked = (band: { from: number; below: number }) =>
    store.sampleAnswers('m', isSpam.fingerprint, 'spam', 'is_spam', 200, band).map((a) => a.stateHash)
  const source = (verdicts: Map<string, VerdictRecord> = new Map(), s: Spec = judgment): ReviewSource => ({
    store,
    model: 'm',
    spec: s,
    key: new Map(),
    verdicts,
  })
  return { source, unsure: ranked({ from: -Infinity, below: 0.2 }), confident: ranked({ from: 0.2, below: Infinity }) }
}

/** Verdicts on rows: `right` says whether the model's yes was right. */
function verdicts(rows: readonly { hash: string; right: boolean }[]): Map<string, VerdictRecord> {
  return new Map(
    rows.map(({ hash, right }) => [
      verdictKey('spam', 'is_spam', hash),
      {
        reviewed_at: '2026-01-01T00:00:00.000',
        reviewer: 'ann',
        judgment: 'spam',
        question: 'is_spam',
        state_hash: hash,
        kind: 'spot_check',
        verdict: right ? 'confirmed' : 'labeled',
        labels: [right ? 'yes' : 'no'],
        model_label: 'yes',
        key_label: null,
        state: { message: hash },
        stratum: null,
        rank: null,
      },
    ]),
  )
}

t.test("fixed allocation offers the first audit rows of the confident stratum, as the seed's order does", async (t) => {
  const { source, confident } = setup()
  const spot = spotChecks(source(new Map(), { ...judgment, allocation: 'fixed' }), isSpam, {
    spotChecks: 7,
    limit: 25,
    reviewed: 0,
  })
  t.same(
    spot.rows.rows.map((a) => a.stateHash),
    confident.slice(0, 7),
  )
  t.equal(spot.left, null, 'the queue counts its own')
})

t.test('the strata as allocation reads them: sizes and what each sample found', async (t) => {
  const { source, unsure, confident } = setup()
  const v = verdicts([
    ...unsure.slice(0, 4).map((hash, i) => ({ hash, right: i < 3 })),
    ...confident.slice(0, 2).map((hash) => ({ hash, right: true })),
  ])
  t.same(strataState(sampleDesignOf(source(v), isSpam)), {
    split: { size: 0, sampled: 0, counted: 0, correct: 0 },
    unsure: { size: 40, sampled: 4, counted: 4, correct: 3 },
    confident: { size: 160, sampled: 2, counted: 2, correct: 2 },
  })
})

t.test('under Neyman allocation the spot checks follow where the interval narrows most', async (t) => {
  const { source, unsure, confident } = setup()
  // The unsure stratum reviewed ahead and found always right: the confident one is behind.
  const behind = verdicts(unsure.slice(0, 30).map((hash) => ({ hash, right: true })))
  const ahead = spotChecks(source(behind), isSpam, { spotChecks: 30, limit: 25, reviewed: 30 })
  t.ok(ahead.depth >= 20, `a long run of spot checks comes first (${ahead.depth})`)
  t.same(
    ahead.rows.rows.map((a) => a.stateHash),
    confident.slice(0, ahead.depth),
    "in the confident stratum's rank order",
  )
  t.ok(ahead.left !== null && ahead.left >= ahead.depth, 'the spot checks to come are counted')
  // The confident stratum reviewed far ahead: the next reviews are unsure ones.
  const over = verdicts(confident.slice(0, 60).map((hash) => ({ hash, right: true })))
  const queue = queueData(source(over), { spotChecks: 30 })
  t.equal(queue.cards[0].kind, 'unsure', 'the queue opens on unsure rows')
  t.equal(
    queue.offered.filter((c) => c.kind === 'spot_check').length,
    0,
    'no spot check is offered while the confident stratum is ahead',
  )
  t.ok(queue.left.is_spam.spot_check >= 0)
})
