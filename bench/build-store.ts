import { DatabaseSync } from 'node:sqlite'
import { SQL } from '../src/adapters/sqlite/sqlite-statements.ts'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { readDistribution } from '../src/core/judge/answer.ts'
import { fingerprintsOf } from '../src/core/judge/judge-row.ts'
import { sampleRank } from '../src/core/stats/sample-rank.ts'
import { stateHash } from '../src/core/judge/state.ts'
import type { Spec, State } from '../src/core/types.ts'
import { fakeDistribution } from '../test/helpers/fake-engine.ts'
import { note } from './common.ts'

/** States written per transaction while building. */
const BATCH = 20_000

/**
 * Fills a store with an answer to every question of `spec` for each state, as `judge run` with
 * the fake engine would have stored them, but fast: the store is created (and migrated) through
 * the adapter, then written through a connection of its own with the adapter's own INSERT
 * statements, many states per transaction, states sorted by hash so that the table grows at its
 * end. Returns the state hashes in the order given.
 */
export function buildCachedStore(file: string, spec: Spec, model: string, states: Iterable<State>): string[] {
  openSqliteStore(file).close()
  const db = new DatabaseSync(file)
  try {
    db.exec('PRAGMA journal_mode = WAL')
    // A large page cache for the build only: the indexes are written in random order.
    db.exec('PRAGMA cache_size = -262144')
    const putState = db.prepare(SQL.putState)
    const putAnswer = db.prepare(SQL.putAnswer)
    const hashes: string[] = []
    const all: { hash: string; state: State }[] = []
    for (const state of states) {
      const hash = stateHash(state)
      hashes.push(hash)
      all.push({ hash, state })
    }
    all.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
    const askedAt = '2026-01-01T00:00:00.000'
    const fingerprints = fingerprintsOf(spec)
    for (let start = 0; start < all.length; start += BATCH) {
      db.exec('BEGIN IMMEDIATE')
      for (const { hash, state } of all.slice(start, start + BATCH)) {
        putState.run(hash, JSON.stringify(state), askedAt)
        spec.questions.forEach((q, i) => {
          const distribution = fakeDistribution(q, state)
          const { label, p, margin } = readDistribution(q, distribution)
          putAnswer.run(
            model,
            fingerprints[i],
            hash,
            spec.name,
            q.name,
            label,
            p,
            margin,
            JSON.stringify(distribution),
            askedAt,
            sampleRank(spec.name, q.name, hash),
            model,
            null,
            'distribution',
            null,
            null,
          )
        })
      }
      db.exec('COMMIT')
      if ((start / BATCH) % 10 === 9) note(`  ${start + BATCH} states written`)
    }
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    return hashes
  } finally {
    db.close()
  }
}
