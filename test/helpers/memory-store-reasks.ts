import type { Reask, ReaskStore } from '../../src/ports/reask-store.ts'

/** The re-ask methods of the in-memory store, with the SQLite adapter's observable behaviour. */
export function createMemoryReasks(): ReaskStore {
  const kept = new Map<string, Reask>()
  const key = (r: Pick<Reask, 'model' | 'fingerprint' | 'check' | 'stateHash'>) =>
    [r.model, r.fingerprint, r.check, r.stateHash].join('\0')
  return {
    addReasks(reasks) {
      for (const r of reasks)
        if (!kept.has(key(r))) kept.set(key(r), JSON.parse(JSON.stringify({ ...r, samples: r.samples ?? null })))
    },
    latestReasks(model, fingerprint) {
      const mine = [...kept.values()].filter((r) => r.model === model && r.fingerprint === fingerprint)
      const latest = mine.reduce((last, r) => (r.check > last ? r.check : last), '')
      return mine
        .filter((r) => r.check === latest)
        .sort((a, b) => (a.stateHash < b.stateHash ? -1 : 1))
        .map((r) => JSON.parse(JSON.stringify(r)))
    },
  }
}
