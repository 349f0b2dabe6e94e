import type { AnswerKey } from './ops/server-metrics.ts'
import type { Resolved } from './resolved-paths.ts'

/** A reply kept for a request body: what to write, and the path resolution it was made under. */
export interface CachedReply {
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
  /** The reply holds while this stands (ResolvedPaths.fresh): a spec edit makes it stale. */
  readonly resolved: Resolved
  /** The answers it gives, counted each time it is sent (metrics). */
  readonly answers?: readonly AnswerKey[]
}

/** Serialized replies by request body, bounded in count and in characters kept. */
export interface ReplyCache {
  get(body: string): CachedReply | undefined
  set(body: string, reply: CachedReply): void
  /**
   * Drops the replies made under a resolution no longer current, and with them the request bodies (rows) they are kept
   * by.
   */
  dropStale(): void
  /** Drops every reply kept: after rows are forgotten, no request body holding them stays in memory. */
  clear(): void
}

/** Options of createReplyCache. */
export interface ReplyCacheOptions {
  readonly maxEntries?: number
  /** Characters of request and reply bodies kept at most. */
  readonly maxChars?: number
}

/** An empty reply cache; beyond its bounds the oldest replies are dropped first. */
export function createReplyCache(options: ReplyCacheOptions = {}): ReplyCache {
  const { maxEntries = 10_000, maxChars = 8_000_000 } = options
  const entries = new Map<string, CachedReply>()
  let chars = 0
  const drop = (key: string) => {
    const old = entries.get(key)
    if (old === undefined) return
    entries.delete(key)
    chars -= key.length + old.body.length
  }
  return {
    get: (body) => entries.get(body),
    set(body, reply) {
      drop(body)
      const size = body.length + reply.body.length
      if (size > maxChars) return
      while (entries.size >= maxEntries || chars + size > maxChars) drop(entries.keys().next().value!)
      entries.set(body, reply)
      chars += size
    },
    dropStale() {
      for (const [body, reply] of entries) if (!reply.resolved.current) drop(body)
    },
    clear() {
      entries.clear()
      chars = 0
    },
  }
}
