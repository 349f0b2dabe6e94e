import { wellFormedId } from '../core/request-id-rule.ts'

/** The length of a run of a secret's characters that an id may not share with it. */
const SHARED_RUN = 8

/**
 * The engine's id of a request as judge keeps it (on answers, errors and the access log), or null
 * when it is dropped: when it is not well formed, or when it holds a secret (the key, a token) or
 * 8 characters in a row of one, since an engine may echo what it was sent.
 */
export function engineRequestId(id: string | null | undefined, secrets: readonly (string | null)[]): string | null {
  if (id == null || !wellFormedId(id)) return null
  return secrets.some((secret) => secret && sharesSecret(id, secret)) ? null : id
}

function sharesSecret(id: string, secret: string): boolean {
  if (id.includes(secret) || secret.includes(id)) return true
  for (let i = 0; i + SHARED_RUN <= secret.length; i++) if (id.includes(secret.slice(i, i + SHARED_RUN))) return true
  return false
}
