import type { Test } from 'tap'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { seededRandom } from '../../src/core/stats/seeded-random.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { precisionPopulation, type PrecisionRow } from './precision-population.ts'

/** The spec of the accuracy project: is_spam with a block rule to tune, and a key drawn at random. */
export const ACCURACY_YAML = `name: spam
model: jev-test
state: [message]
questions:
  is_spam: {ask: Is this spam?, type: yes_no}
act:
  is_spam:
    - route: block
      when: {label: yes, p: ">= 0.7"}
    - route: deliver
key: spam.key.csv
key_sample: random
accuracy_target: 0.01
`

/** Right 80% of the time below p 0.8, 95% from 0.8, 99.5% from 0.9: the precision of "yes at p >= t" is known for every t. */
export const chance = (p: number) => (p >= 0.9 ? 0.995 : p >= 0.8 ? 0.95 : 0.8)

/** The message of a population row, whose state hash the store keys it by. */
export const messageOf = (r: PrecisionRow) => `message ${r.hash}`

/**
 * A project folder whose store holds an answer for every row of a synthetic population (`size`
 * rows, precision known per threshold) and whose key is a random `keyShare` of it, with its true
 * labels. Nothing is asked of an engine.
 */
export function accuracyProject(t: Test, size: number, keyShare: number): { dir: string; rows: PrecisionRow[] } {
  const dir = t.testdir({})
  return { dir, rows: writeAccuracyProject(dir, size, keyShare) }
}

/** Writes the accuracy project into `dir` (its spec, store and key) and returns its population. */
export function writeAccuracyProject(dir: string, size: number, keyShare: number): PrecisionRow[] {
  const rows = precisionPopulation(size, 21, chance)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'spam.judge.yaml'), ACCURACY_YAML)
  const question = parseSpec(ACCURACY_YAML, join(dir, 'spam.judge.yaml')).questions[0]
  const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
  for (const r of rows) {
    const yes = r.label === 'yes' ? r.p : Math.round((1 - r.p) * 100) / 100
    const state = { message: messageOf(r) }
    const distribution = { yes, no: Math.round((1 - yes) * 100) / 100 }
    store.putAnswers(
      [
        {
          model: 'jev-test',
          fingerprint: question.fingerprint,
          stateHash: stateHash(state),
          judgment: 'spam',
          question: 'is_spam',
          distribution,
          label: r.label,
          p: r.p,
          margin: r.margin,
          askedAt: '2026-01-01T00:00:00.000',
        },
      ],
      stateHash(state),
      state,
    )
  }
  store.close()
  const random = seededRandom(3)
  const key = rows
    .filter(() => random() < keyShare)
    .map((r) => [messageOf(r), r.correct ? r.label : r.label === 'yes' ? 'no' : 'yes'])
  writeFileSync(join(dir, 'spam.key.csv'), stringify([['message', 'is_spam'], ...key]))
  return rows
}
