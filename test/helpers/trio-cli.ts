import { join } from 'node:path'
import { createLocalFiles } from '../../src/adapters/files/local-files.ts'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Spec } from '../../src/core/types.ts'

/** Three jurors on the simulated engine: each answers under its own simulated model id. */
export const TRIO = `name: trio
state: [message]
models: [a, b, { model: c, engine: simulated }]
questions:
  is_spam:
    ask: Is this message spam?
    type: yes_no
`

/** The jurors' model ids, in the spec's order. */
export const TRIO_JURORS = ['simulated-a', 'simulated-b', 'simulated-c']

/** The id the trio's jury answers are kept under. */
export const TRIO_JURY = `jury:${TRIO_JURORS.join('+')}`

/** What `see` reads of the store file in `dir` (store.sqlite), opened for it and closed after. */
export function readStore<T>(dir: string, see: (store: ReturnType<typeof openSqliteStore>) => T): T {
  const store = openSqliteStore(join(dir, 'store.sqlite'))
  try {
    return see(store)
  } finally {
    store.close()
  }
}

/** Appends ann's spot check confirming `label` as the trio's is_spam answer for each message, to its reviews file. */
export async function confirmLabels(trio: Spec, labelled: Iterable<readonly [message: string, label: string]>) {
  const files = createLocalFiles()
  for (const [message, label] of labelled)
    await files.appendVerdict(trio, {
      reviewed_at: '2026-11-22T10:00:00',
      reviewer: 'ann',
      judgment: 'trio',
      question: 'is_spam',
      state_hash: stateHash({ message }),
      kind: 'spot_check',
      verdict: 'confirmed',
      labels: [label],
      model_label: label,
      key_label: null,
      state: { message },
      stratum: 'confident',
      rank: 1,
    })
}
