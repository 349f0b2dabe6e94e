import type { IncomingMessage, ServerResponse } from 'node:http'
import { bearerToken } from './auth.ts'
import { parseJson } from './body.ts'
import type { ServerContext } from './context.ts'
import { judgeBody, parseJudgeBody, type JudgeOutcome } from './endpoints/judge.ts'
import { headersOf, type Reply } from './reply.ts'
import { createReplyCache, type ReplyCache } from './reply-cache.ts'
import { send, sendRaw } from './send.ts'

/** Bodies up to this many bytes may take the fast path; larger ones take the full path. */
export const FAST_BODY_LIMIT = 16 * 1024

/** What the fast path leaves to the handler: the full path, and the one way errors become replies. */
export interface FastPathHooks {
  /** Serves a request on the full path, its body already read. */
  handOn(req: IncomingMessage, res: ServerResponse, body: string): void
  /** The reply to an error raised while judging, logged as the full path logs it. */
  failed(error: unknown, pathname: string): Reply
  /** What nothing else caught (a failure writing the response). */
  lastResort(res: ServerResponse, error: unknown): void
}

/** The fast path: takes the requests it can answer, leaves the rest untouched. */
export interface FastPath {
  /** True when the request was taken; false leaves it, unread, to the full path. */
  take(req: IncomingMessage, res: ServerResponse): boolean
}

/**
 * The fast path of POST /v1/judge: a small JSON body with the right bearer token (or none
 * configured). It reads the body from the request's events and answers without a promise when
 * the store holds every answer: from the reply kept for the same body while its path stands
 * (ResolvedPaths), else through judgeBody, the judge endpoint's own code. A body with `log` or
 * `shadow`, and every error raised before anything is asked, go to the full path with the body
 * read, which answers them as it answers any request.
 */
export function createFastPath(ctx: ServerContext, hooks: FastPathHooks, replies: ReplyCache = createReplyCache()): FastPath {
  const answer = (req: IncomingMessage, res: ServerResponse, text: string, done: () => void): void => {
    const kept = replies.get(text)
    if (kept !== undefined && ctx.paths.fresh(kept.resolved, ctx.now().getTime())) {
      sendRaw(res, 200, kept.headers, kept.body)
      return done()
    }
    const outcome = judgeNow(ctx, text)
    if (outcome === null) {
      // Nothing has been asked or written: the full path answers it as it answers any request.
      hooks.handOn(req, res, text)
      return done()
    }
    if (outcome instanceof Promise) {
      outcome.then((o) => send(res, o.reply), (error: unknown) => send(res, hooks.failed(error, '/v1/judge')))
        .catch((error: unknown) => hooks.lastResort(res, error))
        .finally(done)
      return
    }
    if (outcome.fromStore) replies.set(text, { body: outcome.reply.body, headers: headersOf(outcome.reply), resolved: outcome.resolved })
    send(res, outcome.reply)
    done()
  }
  return {
    take(req, res) {
      if (!acceptable(ctx, req)) return false
      const done = ctx.tasks.enter()
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        try {
          answer(req, res, chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString(), done)
        } catch (error) {
          hooks.lastResort(res, error)
          done()
        }
      })
      // A client gone before its body ended is owed nothing.
      req.once('close', () => req.complete || done())
      return true
    },
  }
}

/** The body judged, or null for one the full path must take: `log`, `shadow`, or an error before anything was asked. */
function judgeNow(ctx: ServerContext, text: string): JudgeOutcome | Promise<JudgeOutcome> | null {
  try {
    const body = parseJudgeBody(parseJson(text))
    return body.log || body.shadow !== undefined ? null : judgeBody(ctx, body)
  } catch {
    return null
  }
}

function acceptable(ctx: ServerContext, req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url !== '/v1/judge' || req.headers.expect !== undefined) return false
  const length = Number(req.headers['content-length'])
  if (!(length > 0 && length <= FAST_BODY_LIMIT)) return false
  if (ctx.token === null) return true
  const bearer = bearerToken(req.headers.authorization)
  return bearer !== null && ctx.token.matches(bearer)
}
