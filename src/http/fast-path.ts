import type { IncomingMessage, ServerResponse } from 'node:http'
import { collectBody } from './body.ts'
import type { ServerContext } from './context.ts'
import { storedReply } from './endpoints/judge.ts'
import { headersOf, type Reply } from './reply.ts'
import { createReplyCache, type ReplyCache } from './reply-cache.ts'
import { send, sendRaw } from './send.ts'
import type { Seen } from './ops/observe.ts'

/** Bodies up to this many bytes may take the fast path; larger ones take the full path. */
export const FAST_BODY_LIMIT = 16 * 1024

/** What the fast path leaves to the handler: the one way errors become replies, and the last resort. */
export interface FastPathHooks {
  /** The reply to an error raised while reading the body, as the full path answers it. */
  failed(error: unknown, res: ServerResponse): Reply
  /** What nothing else caught (a failure writing the response). */
  lastResort(res: ServerResponse, error: unknown): void
  /** Told once for each request the fast path answered itself. */
  answered(): void
}

/** The fast path: takes the requests it may answer, leaves the rest untouched. */
export interface FastPath {
  /**
   * Takes a POST /v1/judge with a small body, which the guard has admitted: true when taken.
   * A taken request the store cannot answer in full goes to `handOn` with its body read; false
   * leaves the request, unread, to the full path. `seen` is the request as the observer began it:
   * answered here, its figures are taken here.
   */
  take(req: IncomingMessage, res: ServerResponse, handOn: (text: string) => void, seen: Seen): boolean
}

/**
 * The fast path of POST /v1/judge. It reads the body with the server's one body reader and,
 * without a promise, answers from the reply kept for the same body while everything it was made
 * from stands (ResolvedPaths), else from the store through storedReply, the judge endpoint's own
 * probe. Anything else (`log`, `shadow`, a row to ask, every error) is handed on with its body
 * read, and the full path answers it as it answers any request. The guard has run before either.
 */
export function createFastPath(
  ctx: ServerContext,
  hooks: FastPathHooks,
  replies: ReplyCache = createReplyCache(),
): FastPath {
  /** Answers from what is kept or stored: true when answered, false when handed on. */
  const answer = (res: ServerResponse, text: string, handOn: (text: string) => void): boolean => {
    const kept = replies.get(text)
    if (kept !== undefined && ctx.paths.fresh(kept.resolved, ctx.now().getTime())) {
      sendRaw(res, 200, kept.headers, kept.body)
      if (kept.answers) ctx.observer?.metrics?.answers(kept.answers)
      hooks.answered()
      return true
    }
    const stored = storedReply(ctx, text)
    // Nothing has been asked or written: the full path answers it as it answers any request.
    if (stored === null) {
      handOn(text)
      return false
    }
    replies.set(text, {
      body: stored.reply.body,
      headers: headersOf(stored.reply),
      resolved: stored.resolved,
      answers: stored.answers,
    })
    send(res, stored.reply)
    hooks.answered()
    return true
  }
  return {
    take(req, res, handOn, seen) {
      if (req.method !== 'POST' || req.url !== '/v1/judge') return false
      const length = Number(req.headers['content-length'])
      if (!(length > 0 && length <= FAST_BODY_LIMIT)) return false
      const done = ctx.tasks.enter()
      collectBody(req, res, FAST_BODY_LIMIT, (error, text) => {
        // Answered here, its figures are taken here; handed on, the full path watches it close.
        let answered = true
        try {
          if (error) send(res, hooks.failed(error, res))
          else answered = answer(res, text, handOn)
        } catch (failure) {
          hooks.lastResort(res, failure)
        }
        if (answered) ctx.observer?.end(seen, res)
        done()
      })
      return true
    },
  }
}
