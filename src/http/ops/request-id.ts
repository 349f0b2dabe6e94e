import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { wellFormedId } from '../../core/request-id-rule.ts'

/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * The id of a request: the client's X-Request-Id when well formed (src/core/request-id-rule.ts; the first, if sent
 * twice), else a new UUID.
 */
export function requestIdOf(header: string | readonly string[] | undefined): string {
  const sent = typeof header === 'string' ? header : header?.[0]
  return sent !== undefined && wellFormedId(sent) ? sent : randomUUID()
}

// The id of a response, kept on it under a key of this module's: written among its headers when it
// is sent (send.ts), so that a response's headers go out in one object, as node:http writes fastest.
const ID = Symbol('request id')

/**
 * Gives a request its id, which its response carries in its headers whichever way it is written: the id. An id sent
 * more than once, which Node joins as `a, b`, is read header by header, and the first is the one kept (or replaced).
 */
export function identify(req: IncomingMessage, res: ServerResponse): string {
  const joined = req.headers[REQUEST_ID_HEADER]
  const id = requestIdOf(joined?.includes(',') ? req.headersDistinct[REQUEST_ID_HEADER] : joined)
  ;(res as Identified)[ID] = id
  return id
}

/** The id a response was given by identify, or null. */
export function idOf(res: ServerResponse): string | null {
  return (res as Identified)[ID] ?? null
}

type Identified = ServerResponse & { [ID]?: string }
