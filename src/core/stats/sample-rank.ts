import { hash } from 'node:crypto'

/**
 * The place of a key in a sample order: a 48-bit integer taken from SHA-256 of the key's parts
 * joined by NUL (the review queue's key is judgment, question and state hash). Sorting by it gives
 * an order that looks random, never changes between requests, and lets a reviewed row leave the
 * sample without reshuffling the others. 48 bits keep it a safe integer in JavaScript and an
 * INTEGER in SQLite.
 */
export function sampleRank(...key: readonly string[]): number {
  // The digest's first six bytes as one big-endian number, the value of its first 12 hex digits: read from the
  // digest as binary (latin1) text, one character per byte, so that no 64-digit hex string is written and cut.
  // Every step is exact below 2^53.
  const digest = hash('sha256', key.join('\0'), 'binary')
  let rank = 0
  for (let i = 0; i < 6; i++) rank = rank * 256 + digest.charCodeAt(i)
  return rank
}
