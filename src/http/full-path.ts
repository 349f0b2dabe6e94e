import type { IncomingMessage, ServerResponse } from 'node:http'
import { MethodNotAllowedError, NotFoundError } from '../errors.ts'
import { StoreError } from '../store-error.ts'
import { authorize } from './auth.ts'
import { BODY_LIMIT, PRE_AUTH_FORM_LIMIT, readBody, requestBody, type Body } from './body.ts'
import type { Endpoint, HttpRequest, ServerContext } from './context.ts'
import type { Admission } from './guard.ts'
import { errorReply, type Reply } from './reply.ts'
import type { Match } from './router.ts'
import { idOf } from './ops/request-id.ts'
import { isApiPath } from './routes.ts'
import { send } from './send.ts'

/** A request as the handler hands it to the full path: routed and admitted by the guard. */
export interface Exchange {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly method: string
  readonly pathname: string
  readonly query: URLSearchParams
  readonly found: Match<Endpoint>
  readonly admission: Admission
  /** The body, when the fast path read it already. */
  readonly text?: string
}

/**
 * The full path: reads the body on demand (a form that must carry the token itself only up to
 * PRE_AUTH_FORM_LIMIT before the token is checked, so that a stranger cannot make the server take
 * in a large body), calls the endpoint, sends its reply and starts its after-response task.
 */
export async function serveFull(ctx: ServerContext, exchange: Exchange): Promise<void> {
  const { req, res, method, pathname, query, found, admission } = exchange
  const body =
    exchange.text === undefined
      ? requestBody(req, res, admission.inForm ? PRE_AUTH_FORM_LIMIT : BODY_LIMIT)
      : readBody(req, exchange.text)
  let token: string | null = null
  let reply: Reply
  try {
    token = admission.inForm ? authorize(ctx.token, await formToken(method, body)) : admission.token
    const params = found.kind === 'found' ? found.params : {}
    const request: HttpRequest = {
      method,
      pathname,
      query,
      params,
      headers: req.headers,
      token,
      json: body.json,
      form: body.form,
    }
    reply = await endpointOf(found, method, pathname)(ctx, request)
  } catch (error) {
    reply = failure(ctx, error, method, pathname, token, idOf(res))
  }
  send(res, reply)
  if (reply.after) void ctx.tasks.track(afterSent(ctx, res, reply.after))
}

/** The reply to an error, logged when it is the server's fault: the one way errors are answered. */
export function failure(
  ctx: ServerContext,
  error: unknown,
  method: string,
  pathname: string,
  token: string | null,
  requestId: string | null = null,
): Reply {
  const failed = errorReply(error, { json: isApiPath(pathname), token, clean: ctx.clean, requestId, page: pathname })
  const id = requestId === null ? '' : ` (request ${requestId})`
  if (failed.logged) ctx.log(`internal error on ${method} ${pathname}${id}: ${ctx.clean(detailsOf(error))}`)
  // A store in trouble is the operator's to fix: one line, which says what to do, and no stack.
  else if (error instanceof StoreError) ctx.log(`store trouble on ${method} ${pathname}: ${ctx.clean(error.message)}`)
  return failed.reply
}

function endpointOf(found: Match<Endpoint>, method: string, pathname: string): Endpoint {
  if (found.kind === 'found') return found.route.value
  if (found.kind === 'method') {
    throw new MethodNotAllowedError(
      `${method} is not allowed on ${pathname}; allowed: ${found.allow.join(', ')}`,
      found.allow,
    )
  }
  throw new NotFoundError(`nothing here: ${pathname}`)
}

/** The token of a posted form, for a server whose request carried it nowhere else. */
async function formToken(method: string, body: Body): Promise<{ token: string; source: 'form' } | null> {
  const token = method === 'POST' && body.isForm ? (await body.form()).get('token') : null
  return token === null ? null : { token, source: 'form' }
}

/** Runs `after` once the response has gone out (or the client is gone), logging what it throws. */
async function afterSent(ctx: ServerContext, res: ServerResponse, after: () => Promise<void>): Promise<void> {
  if (!res.writableFinished && !res.destroyed) {
    await new Promise<void>((resolve) => {
      res.once('finish', resolve)
      res.once('close', resolve)
    })
  }
  try {
    await after()
  } catch (error) {
    ctx.log(`after-response task failed: ${ctx.clean(String((error as Error)?.message ?? error))}`)
  }
}

/** An error's stack, and its cause's, for the log. */
function detailsOf(error: unknown): string {
  const stack = (error as Error)?.stack ?? String(error)
  const cause = (error as Error)?.cause
  return cause === undefined ? stack : `${stack}\ncaused by: ${(cause as Error)?.stack ?? String(cause)}`
}
