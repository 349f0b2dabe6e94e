import { createHash } from 'node:crypto'
import type { SourcedRow } from '../../src/core/types.ts'
import type { Engine, EngineRequest, EngineResult } from '../../src/ports/engine.ts'
import type { Files } from '../../src/ports/files.ts'
import { createFakeEngine } from './fake-engine.ts'

/** An engine whose alias `jev-latest` moves from `jev-1.0` to `jev-2.0` when `moved` is set. */
export interface VersionedEngine extends Engine {
  moved: boolean
  readonly calls: EngineRequest[]
}

/** The message of row `i` of the versioned engine's data. */
export const message = (i: number): string => `message number ${i}`

/**
 * A fake engine answering `is_spam` by the row number in the message: `jev-1.0` says yes for even
 * rows; `jev-2.0` says no for every fourth row (0, 4, 8, …) and otherwise as `jev-1.0`, flipping a
 * known quarter of the rows. Other questions are answered alike by both. `jev-latest` is answered
 * by whichever model the alias points to, and the result names it.
 */
export function createVersionedEngine(): VersionedEngine {
  const fake = createFakeEngine()
  const engine: VersionedEngine = {
    moved: false,
    calls: [],
    defaultModel: 'jev-latest',
    async ask(request): Promise<EngineResult> {
      engine.calls.push(request)
      const model = request.model === 'jev-latest' ? (engine.moved ? 'jev-2.0' : 'jev-1.0') : request.model
      const result = await fake.ask(request)
      const i = Number(/(\d+)$/.exec(request.state.message ?? '')?.[1] ?? 1)
      const yes = model === 'jev-2.0' && i % 4 === 0 ? false : i % 2 === 0
      const distributions = {
        ...result.distributions,
        ...(result.distributions.is_spam ? { is_spam: yes ? { yes: 0.9, no: 0.1 } : { yes: 0.1, no: 0.9 } } : {}),
      }
      return { ...result, model, distributions }
    },
  }
  return engine
}

/** A files port serving in-memory data files (rows of `message`) by name, with a hash of their content. */
export function dataFiles(files: Record<string, readonly number[]>): Partial<Files> {
  return {
    async *rows(file: string): AsyncIterable<SourcedRow> {
      for (const [n, i] of (files[file] ?? []).entries())
        yield { row: { message: message(i) }, where: `${file}:${n + 2}` }
    },
    contentHash: async (file: string) =>
      createHash('sha256')
        .update(JSON.stringify(files[file] ?? null))
        .digest('hex')
        .slice(0, 16),
  }
}
