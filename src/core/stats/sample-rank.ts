import { hash } from 'node:crypto'

/**
 * The place of a key in a sample order: a 48-bit integer taken from SHA-256 of the key's parts
 * joined by NUL (the review queue's key is judgment, question and state hash). Sorting by it gives
 * an order that looks random, never changes between requests, and lets a reviewed row leave the
 * sample without reshuffling the others. 48 bits keep it a safe integer in JavaScript and an
 * INTEGER in SQLite.
 */
export function sampleRank(...key: readonly string[]): number {
  return Number.parseInt(hash('sha256', key.join('\0')).slice(0, 12), 16)
}
