import { createHash } from 'node:crypto'

/** SHA-256 of a string as lowercase hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The first 16 hex digits of SHA-256: the short hashes used for states, questions and specs. */
export function shortHash(text: string): string {
  return sha256(text).slice(0, 16)
}
