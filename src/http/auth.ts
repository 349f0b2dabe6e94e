import { hash, timingSafeEqual } from 'node:crypto'
import { UnauthorizedError } from '../errors.ts'

/** Where a request presented its token, if anywhere. */
export type TokenSource = 'header' | 'query' | 'form'

/** The token a request presented, and where. */
export interface Presented {
  readonly token: string
  readonly source: TokenSource
}

/** The token of an `Authorization: Bearer <token>` header, or null when the header is absent or another scheme. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? null
}

/** The configured token, ready to compare presented tokens against. */
export interface ServerToken {
  /** Whether `presented` is the token, in time that tells nothing of the configured token's value or length. */
  matches(presented: string): boolean
}

/**
 * The check of one configured token: each presented token is hashed with SHA-256 and its digest
 * compared with the configured one's by `timingSafeEqual`. Digests are of one length whatever the
 * tokens', so the time taken tells nothing of the configured token's value or length.
 */
export function serverToken(expected: string): ServerToken {
  const digest = hash('sha256', expected, 'buffer')
  return { matches: (presented) => timingSafeEqual(hash('sha256', presented, 'buffer'), digest) }
}

/**
 * Checks a request's token against the configured one; throws UnauthorizedError (401) when it is
 * missing or wrong. Returns the token to carry on in the page's links and forms: the one given in
 * the query or a form, or null (none configured, or sent in a header: a client that sets headers
 * sets them on every request, and a header token has no business in a page).
 */
export function authorize(expected: ServerToken | null, presented: Presented | null): string | null {
  if (expected === null) return null
  if (presented === null)
    throw new UnauthorizedError('a token is required: send Authorization: Bearer <token>, or the token parameter')
  if (!expected.matches(presented.token)) throw new UnauthorizedError('the token is wrong')
  return presented.source === 'header' ? null : presented.token
}
