import { randomUUID } from 'node:crypto'
import { wellFormedId } from '../../core/request-id-rule.ts'

/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * The id of a request: the client's X-Request-Id when well formed (src/core/request-id-rule.ts; the first, if sent
 * twice: Node joins one sent twice as `a, b`, so the caller gives it header by header), else a new UUID.
 */
export function requestIdOf(header: string | readonly string[] | undefined): string {
  const sent = typeof header === 'string' ? header : header?.[0]
  return sent !== undefined && wellFormedId(sent) ? sent : randomUUID()
}
