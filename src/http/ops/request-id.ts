import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * What a client's id may be to be kept: 1 to 128 letters, digits and `._:/+=@-` (a UUID, a
 * trace id, a proxy's id). Anything else (empty, too long, spaces, controls) is replaced, so an id
 * is safe in a log line and a header.
 */
const WELL_FORMED = /^[A-Za-z0-9._:/+=@-]{1,128}$/

/** The id of a request: the client's X-Request-Id when well formed (the first, if sent twice), else a new UUID. */
export function requestIdOf(header: string | readonly string[] | undefined): string {
  const sent = typeof header === 'string' ? header : header?.[0]
  return sent !== undefined && WELL_FORMED.test(sent) ? sent : randomUUID()
}

// The id of a response, kept on it under a key of this module's: written among its headers when it
// is sent (send.ts), so that a response's headers go out in one object, as node:http writes fastest.
const ID = Symbol('request id')

/** Gives a request its id, which its response carries in its headers whichever way it is written: the id. */
export function identify(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req.headers[REQUEST_ID_HEADER])
  ;(res as Identified)[ID] = id
  return id
}

/** The id a response was given by identify, or null. */
export function idOf(res: ServerResponse): string | null {
  return (res as Identified)[ID] ?? null
}

type Identified = ServerResponse & { [ID]?: string }
