import { hash } from 'node:crypto'

/** SHA-256 of a string as lowercase hex. */
export function sha256(text: string): string {
  // The one-shot hash builds no Hash object: it costs half of createHash().update().digest().
  return hash('sha256', text)
}

/** The first 16 hex digits of SHA-256: the short hashes used for states, questions and specs. */
export function shortHash(text: string): string {
  return sha256(text).slice(0, 16)
}
