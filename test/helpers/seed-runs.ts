import { join } from 'node:path'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { timestamp } from '../../src/core/judge/deps.ts'
import { newRunId } from '../../src/core/judge/judge-rows.ts'
import type { LabelCount, RunRecord } from '../../src/core/types.ts'

/** One run to record: its judgment, rows and label counts per question. */
export interface SeedRun {
  readonly judgment: string
  readonly counts: Readonly<Record<string, Readonly<Record<string, number>>>>
  readonly status?: string
  readonly model?: string
  /** What the run ran on; default `run` of `data.csv`, and the model asked as the one reported. */
  readonly command?: string
  readonly source?: string
  readonly reported_model?: string
}

/**
 * Records runs in the store of `dir` (its .judge/store.sqlite), a minute apart from 2026-01-01
 * in the order given, and returns their records.
 */
export function seedRuns(dir: string, runs: readonly SeedRun[]): RunRecord[] {
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  try {
    return runs.map((seed, i) => {
      const started = new Date(Date.UTC(2026, 0, 1, 0, i))
      const rows = Object.values(Object.values(seed.counts)[0] ?? {}).reduce((a, b) => a + b, 0)
      const run: RunRecord = {
        run_id: newRunId(started, () => (i % 97) / 97),
        judgment: seed.judgment,
        spec_hash: 'abcdef0123456789',
        git_sha: 'a1b2c3d',
        model: seed.model ?? 'jev-1.13.0',
        rows,
        asked: rows * 2,
        cost: 0.0001 * (i + 1),
        status: seed.status ?? 'complete',
        started_at: timestamp(started),
        finished_at: timestamp(new Date(started.getTime() + 1500)),
        cached: 0,
        requests: rows,
        command: seed.command ?? 'run',
        source: seed.source ?? 'data.csv',
        source_hash: '',
        node: seed.judgment,
        reported_model: seed.reported_model ?? seed.model ?? 'jev-1.13.0',
        states: rows,
        fingerprints: {},
      }
      const counts: LabelCount[] = Object.entries(seed.counts).flatMap(([question, labels]) =>
        Object.entries(labels).map(([label, count]) => ({ run_id: run.run_id, question, label, count })),
      )
      store.recordRun(run, counts)
      return run
    })
  } finally {
    store.close()
  }
}
