import { MethodNotAllowedError, NotFoundError } from '../errors.ts'
import { StoreError } from '../store-error.ts'
import type { Endpoint, ServerContext } from './context.ts'
import { errorReply, type Reply } from './reply.ts'
import type { Match } from './router.ts'
import { isApiPath } from './routes.ts'

/**
 * The reply to an error, logged when it is the server's fault: the one way errors are answered. `query` is the
 * request's, with which a page refused for its token offers to ask again with one (GET only).
 */
export function failure(
  ctx: Pick<ServerContext, 'log' | 'clean'>,
  error: unknown,
  method: string,
  pathname: string,
  token: string | null,
  requestId: string,
  query: URLSearchParams | null = null,
): Reply {
  const again = method === 'GET' ? query : null
  const style = { json: isApiPath(pathname), token, clean: ctx.clean, requestId, page: pathname, query: again }
  const failed = errorReply(error, style)
  if (failed.logged) {
    ctx.log(`internal error on ${method} ${pathname} (request ${requestId}): ${ctx.clean(detailsOf(error))}`)
  }
  // A store in trouble is the operator's to fix: one line, which says what to do, and no stack.
  else if (error instanceof StoreError) ctx.log(`store trouble on ${method} ${pathname}: ${ctx.clean(error.message)}`)
  return failed.reply
}

/** The endpoint a route match calls: a 404 for no route, a 405 (with the methods allowed) for another method. */
export function endpointOf(found: Match<Endpoint>, method: string, pathname: string): Endpoint {
  if (found.kind === 'found') return found.route.value
  if (found.kind === 'method') {
    throw new MethodNotAllowedError(
      `${method} is not allowed on ${pathname}; allowed: ${found.allow.join(', ')}`,
      found.allow,
    )
  }
  throw new NotFoundError(`nothing here: ${pathname}`)
}

/** An error's stack, and its cause's, for the log. */
function detailsOf(error: unknown): string {
  const stack = (error as Error)?.stack ?? String(error)
  const cause = (error as Error)?.cause
  return cause === undefined ? stack : `${stack}\ncaused by: ${(cause as Error)?.stack ?? String(cause)}`
}
