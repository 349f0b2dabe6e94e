import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import type { JuryStore, LabelPattern } from '../../src/ports/jury-store.ts'

/** The jury's methods of the in-memory store, over its answers, with the SQLite adapter's observable behaviour. */
export function createMemoryJury(answers: () => Iterable<StoredAnswer>): JuryStore {
  return {
    labelPatterns(models, fingerprint) {
      const byState = new Map<string, (string | null)[]>()
      for (const a of answers()) {
        if (a.fingerprint !== fingerprint || !models.includes(a.model)) continue
        const labels = byState.get(a.stateHash) ?? models.map(() => null)
        models.forEach((m, i) => {
          if (m === a.model) labels[i] = a.label
        })
        byState.set(a.stateHash, labels)
      }
      const counts = new Map<string, LabelPattern>()
      for (const labels of byState.values()) {
        const id = JSON.stringify(labels)
        counts.set(id, { labels, count: (counts.get(id)?.count ?? 0) + 1 })
      }
      return [...counts.values()]
    },
  }
}
