import type { AnswerKey } from './ops/server-metrics.ts'
import type { Reply } from './reply.ts'
import type { Resolved, ResolvedPaths } from './resolved-paths.ts'

/** A reply kept for a request body, and the path resolution it was made under. */
export interface CachedReply {
  /** The reply as it is sent again, marked `kept`. */
  readonly reply: Reply
  /** The reply holds while this stands (ResolvedPaths.fresh): a spec edit makes it stale. */
  readonly resolved: Resolved
  /** The answers it gives, counted each time it is sent (metrics). */
  readonly answers: readonly AnswerKey[]
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
    chars -= key.length + old.reply.body.length
  }
  return {
    get: (body) => entries.get(body),
    set(body, kept) {
      drop(body)
      const size = body.length + kept.reply.body.length
      if (size > maxChars) return
      while (entries.size >= maxEntries || chars + size > maxChars) drop(entries.keys().next().value!)
      entries.set(body, kept)
      chars += size
    },
    dropStale() {
      for (const [body, kept] of entries) if (!kept.resolved.current) drop(body)
    },
    clear() {
      entries.clear()
      chars = 0
    },
  }
}

/** What keeping replies takes of the server: the cache, the revalidation point, the clock, the metrics. */
export interface Keeping {
  readonly replies: ReplyCache
  readonly paths: Pick<ResolvedPaths, 'fresh'>
  readonly now: () => Date
  readonly observer?: { readonly metrics: { answers(keys: readonly AnswerKey[]): void } | null }
}

/**
 * Wraps an endpoint with the replies kept by request body: a body whose reply is kept, while the
 * resolution it was made under stands, gets that reply back without calling the endpoint; any
 * other goes on into the endpoint with the body already read, and a reply it marks `keep` is kept.
 */
export function keptReplies<C extends Keeping, R extends { readonly body: string }>(
  endpoint: (ctx: C, request: R) => Reply | Promise<Reply>,
): (ctx: C, request: R) => Reply | Promise<Reply> {
  return (ctx, request) => {
    const kept = ctx.replies.get(request.body)
    if (kept !== undefined && ctx.paths.fresh(kept.resolved, ctx.now().getTime())) {
      ctx.observer?.metrics?.answers(kept.answers)
      return kept.reply
    }
    const keep = (reply: Reply): Reply => {
      if (reply.keep === undefined) return reply
      const { keep: under, ...rest } = reply
      ctx.replies.set(request.body, { reply: { ...rest, kept: true }, ...under })
      return reply
    }
    const reply = endpoint(ctx, request)
    return reply instanceof Promise ? reply.then(keep) : keep(reply)
  }
}
